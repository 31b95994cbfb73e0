import Foundation
import PromiseMVPTesting
import Services
import Testing

/// The tus upload server's own bookkeeping, asked through its responder.
@Suite("TestUploadAPI")
struct TestUploadAPITests {
    @Test("a forgotten upload is 404 and leaves the others listed, in the order they were made")
    func forgottenUploadLeavesTheOthers() {
        // Given: three uploads made
        let api = TestUploadAPI()
        func send(_ method: String, _ path: String, _ headers: [String: String] = [:]) -> Int? {
            let request = TestHTTPServer.Request(
                method: method, path: path,
                headers: headers.merging(["tus-resumable": FileUploader.version]) { a, _ in a })
            guard case .status(let status, _, _, _)? = api.respond(request) else { return nil }
            return status
        }
        let made = (1...3).map { _ in send("POST", "/uploads", ["upload-length": "3"]) }

        // When
        api.forget("upload-2")

        // Then
        #expect(made == [201, 201, 201])
        #expect(api.uploads.map(\.id) == ["upload-1", "upload-3"])
        #expect(send("HEAD", "/uploads/upload-2") == 404 && send("HEAD", "/uploads/upload-3") == 200)
    }
}
