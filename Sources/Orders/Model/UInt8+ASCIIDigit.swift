extension UInt8 {
    /// Whether this UTF-8 byte is one of the ASCII digits `0`-`9`: what the byte-level readers of
    /// card numbers and stored amounts accept as a digit.
    var isASCIIDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
