// A stand-in for Apple's Security framework, declaring only what the package calls, with the
// signatures Apple's documentation gives ("Keychain items", "Item Attribute Keys and Values",
// "Security Framework Result Codes"), so that `.ci/apple-typecheck` can compile the package's
// `#if canImport(Security)` code on Linux. Nothing here runs.
//
// Core Foundation is not bridged on Linux: `CFDictionary` and `CFString` stand for the Swift
// types the package converts them from and to (`as CFDictionary`, `as String`), which checks the
// calls' names, labels, arity and `try`s, not the bridging itself.
import Foundation

public typealias OSStatus = Int32
public typealias CFTypeRef = AnyObject
public typealias CFDictionary = [String: Any]
public typealias CFString = String

// Item class and attribute keys.
public let kSecClass: CFString = "class"
public let kSecClassGenericPassword: CFString = "genp"
public let kSecAttrService: CFString = "svce"
public let kSecAttrAccount: CFString = "acct"
public let kSecAttrAccessible: CFString = "pdmn"
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
public let kSecAttrAccessGroup: CFString = "agrp"
public let kSecUseDataProtectionKeychain: CFString = "nleg"
// Search and return keys.
public let kSecReturnData: CFString = "r_Data"
public let kSecMatchLimit: CFString = "m_Limit"
public let kSecMatchLimitOne: CFString = "m_LimitOne"
public let kSecValueData: CFString = "v_Data"

// Result codes.
public let errSecSuccess: OSStatus = 0
public let errSecItemNotFound: OSStatus = -25300
public let errSecDuplicateItem: OSStatus = -25299
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecMissingEntitlement: OSStatus = -34018

// Keychain items.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecItemNotFound
}
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecSuccess
}
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    errSecSuccess
}
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    errSecSuccess
}
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    nil
}
