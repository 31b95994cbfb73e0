import Foundation
import PromiseMVPTesting
import Services
import Testing

/// The tus upload server's own bookkeeping, asked through its responder.
@Suite("TestUploadAPI")
struct TestUploadAPITests {
    /// `request` answered by `api`: its status and headers; `nil` for a path not the uploads'.
    static func send(_ api: TestUploadAPI, _ request: TestHTTPServer.Request) -> (
        status: Int, headers: [String: String]
    )? {
        guard case .status(let status, _, _, let headers)? = api.respond(request) else { return nil }
        return (status, headers)
    }

    /// A tus request (`Tus-Resumable` set) to `api`.
    static func tus(
        _ api: TestUploadAPI, _ method: String, _ path: String, _ headers: [String: String] = [:],
        body: Data = Data()
    ) -> (status: Int, headers: [String: String])? {
        var headers = headers
        headers["tus-resumable"] = FileUploader.version
        return send(api, TestHTTPServer.Request(method: method, path: path, body: body, headers: headers))
    }

    /// A file sent whole (no `Tus-Resumable`): a `POST` to the uploads, or a `PUT` to one of them.
    static func whole(_ api: TestUploadAPI, _ method: String, _ path: String, bytes: Int) -> (
        status: Int, headers: [String: String]
    )? {
        send(api, TestHTTPServer.Request(method: method, path: path, body: Data(repeating: 7, count: bytes)))
    }

    @Test(
        "tus: a request without Tus-Resumable is 412; an upload of 0 bytes is made whole; of the largest size, taken"
    )
    func creationChecks() {
        // Given
        let api = TestUploadAPI(maximumSize: 10)

        // When
        let empty = Self.tus(api, "POST", "/uploads", ["upload-length": "0"])
        let bare = Self.send(api, TestHTTPServer.Request(method: "HEAD", path: "/uploads/upload-1"))
        let largest = Self.tus(api, "POST", "/uploads", ["upload-length": "10"])
        let over = Self.tus(api, "POST", "/uploads", ["upload-length": "11"])

        // Then
        #expect(empty?.status == 201 && largest?.status == 201 && over?.status == 413)
        #expect(bare?.status == 412 && bare?.headers["Tus-Version"] == FileUploader.version)
        #expect(
            api.uploads.first?.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(api.uploads.map(\.length) == [0, 10])
    }

    @Test("a file sent whole: up to the largest size; each POST gets an id of its own, a PUT keeps its own")
    func filesSentWhole() {
        // Given
        let api = TestUploadAPI(maximumSize: 10)

        // When
        let first = Self.whole(api, "POST", "/uploads", bytes: 10)
        let over = Self.whole(api, "POST", "/uploads", bytes: 11)
        let second = Self.whole(api, "POST", "/uploads", bytes: 3)
        let named = Self.whole(api, "PUT", "/uploads/mine", bytes: 3)

        // Then
        #expect(first?.status == 201 && over?.status == 413 && named?.status == 201 && second?.status == 201)
        #expect(
            [first, second, named].map { $0?.headers["Location"] }
                == ["/uploads/upload-1", "/uploads/upload-2", "/uploads/mine"])
        #expect(api.uploads.map(\.id) == ["upload-1", "upload-2", "mine"])
    }

    @Test("a forgotten upload is 404 and leaves the others listed, in the order they were made")
    func forgottenUploadLeavesTheOthers() {
        // Given: three uploads made
        let api = TestUploadAPI()
        func send(_ method: String, _ path: String, _ headers: [String: String] = [:]) -> Int? {
            Self.tus(api, method, path, headers)?.status
        }
        let made = (1...3).map { _ in send("POST", "/uploads", ["upload-length": "3"]) }

        // When
        api.forget("upload-2")

        // Then
        #expect(made == [201, 201, 201])
        #expect(api.uploads.map(\.id) == ["upload-1", "upload-3"])
        #expect(send("HEAD", "/uploads/upload-2") == 404 && send("HEAD", "/uploads/upload-3") == 200)
    }

    @Test(
        "tus PATCH: 415 without the offset media type, 409 at another offset, 400 past the length; the last completes"
    )
    func patchRules() {
        // Given: an upload of 6 bytes
        let api = TestUploadAPI()
        _ = Self.tus(api, "POST", "/uploads", ["upload-length": "6"])
        func patch(_ bytes: String, at offset: Int, type: String = "application/offset+octet-stream")
            -> (status: Int, headers: [String: String])?
        {
            Self.tus(
                api, "PATCH", "/uploads/upload-1", ["content-type": type, "upload-offset": String(offset)],
                body: Data(bytes.utf8))
        }

        // When
        let wrongType = patch("abc", at: 0, type: "application/octet-stream")
        let first = patch("abc", at: 0)
        let behind = patch("def", at: 1)
        let ahead = patch("d", at: 5)
        let past = patch("defg", at: 3)
        let halfway = api.uploads.first
        let last = patch("def", at: 3)

        // Then
        #expect(wrongType?.status == 415)
        #expect(first?.status == 204 && first?.headers["Upload-Offset"] == "3")
        for wrongOffset in [behind, ahead] {
            #expect(wrongOffset?.status == 409 && wrongOffset?.headers["Upload-Offset"] == "3")
        }
        #expect(past?.status == 400)
        #expect(halfway?.offset == 3 && halfway?.sha256 == nil)
        #expect(last?.status == 204 && last?.headers["Upload-Offset"] == "6")
        #expect(api.uploads.first?.bytes == Data("abcdef".utf8))
        #expect(
            api.uploads.first?.sha256 == "bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721")
    }

    @Test("GET of a complete upload: whole, a range clamped to its end (206), a range past it (416)")
    func downloadRanges() {
        // Given: "abcdef" sent whole
        let api = TestUploadAPI()
        _ = Self.send(
            api, TestHTTPServer.Request(method: "POST", path: "/uploads", body: Data("abcdef".utf8)))
        func get(_ range: String?) -> (status: Int, body: String, range: String?)? {
            let request = TestHTTPServer.Request(
                method: "GET", path: "/uploads/upload-1", headers: range.map { ["range": $0] } ?? [:])
            guard case .bytes(let status, let body, _, let headers)? = api.respond(request) else {
                return nil
            }
            return (status, String(decoding: body, as: UTF8.self), headers["Content-Range"])
        }

        // When
        let whole = get(nil)
        let middle = get("bytes=1-2")
        let one = get("bytes=1-1")
        let toTheEnd = get("bytes=2-")
        let clamped = get("bytes=2-999")
        let past = get("bytes=9-")

        // Then
        #expect(whole?.status == 200 && whole?.body == "abcdef")
        #expect(middle?.status == 206 && middle?.body == "bc" && middle?.range == "bytes 1-2/6")
        #expect(one?.status == 206 && one?.body == "b" && one?.range == "bytes 1-1/6")
        #expect(toTheEnd?.status == 206 && toTheEnd?.body == "cdef" && toTheEnd?.range == "bytes 2-5/6")
        #expect(clamped?.status == 206 && clamped?.body == "cdef" && clamped?.range == "bytes 2-5/6")
        #expect(past?.status == 416 && past?.range == "bytes */6")
    }
}
