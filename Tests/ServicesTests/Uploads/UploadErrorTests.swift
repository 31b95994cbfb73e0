import Testing

@testable import Services

/// `UploadError`'s words, for a log or a screen, and which failures it names as refusals.
@Suite("Upload error")
struct UploadErrorTests {
    @Test("each failure says what happened with its own figures in their places")
    func descriptions() {
        #expect(
            UploadError.refused(status: 413, reason: "too large").description
                == "the API refused the upload (413): too large")
        #expect(
            UploadError.refused(status: 415, reason: "").description == "the API refused the upload (415)")
        #expect(
            UploadError.offsetBeyondSent(offset: 1_500, sent: 1_000).description
                == "the API says it holds 1500 bytes of the upload, but only 1000 were sent")
        #expect(
            UploadError.fileUnreadable(path: "/kept/ab12", reason: "it is gone").description
                == "could not read /kept/ab12 to upload it: it is gone")
        #expect(
            UploadError.notResumable(reason: "no Location").description
                == "the upload cannot go on: no Location")
    }

    @Test("400, 403, 412, 413 and 415 are refusals with the API's words; any other failure stays as it is")
    func refusalsNamed() {
        for status in [400, 403, 412, 413, 415] {
            #expect(
                UploadError.named(APIError.httpStatus(status, body: "no")) as? UploadError
                    == .refused(status: status, reason: "no"))
        }
        for status in [401, 404, 409, 500] {
            #expect(UploadError.named(APIError.httpStatus(status, body: "no")) as? UploadError == nil)
        }
    }
}
