import Testing

@testable import SandboxWebSockets

@Suite("The ready line of sandbox serve")
struct ReadyLineTests {
    @Test("its text, as scripts and tests wait for it")
    func text() {
        #expect(
            ReadyLine(host: "127.0.0.1", port: 8080).text == "Transition Sandbox listening on http://127.0.0.1:8080/")
        #expect(
            ReadyLine(host: "0.0.0.0", port: 41234, threads: 3).text
                == "Transition Sandbox listening on http://0.0.0.0:41234/ (3 service threads)")
        #expect(
            ReadyLine(host: "127.0.0.1", port: 8443, secure: true).text
                == "Transition Sandbox listening on https://127.0.0.1:8443/")
    }

    @Test(
        "parsed back",
        arguments: [
            ReadyLine(host: "127.0.0.1", port: 8080), ReadyLine(host: "127.0.0.1", port: 1, threads: 16),
            ReadyLine(host: "::1", port: 65535, threads: 2), ReadyLine(host: "localhost", port: 9),
            ReadyLine(host: "127.0.0.1", port: 8443, threads: 2, secure: true),
        ])
    func roundTrip(line: ReadyLine) {
        #expect(ReadyLine(parsing: line.text) == line)
        #expect(ReadyLine(parsing: line.text + "\n") == line)
    }

    @Test(
        "anything else is not a ready line",
        arguments: [
            "", "Transition Sandbox stopped", "ws-floor listening on 7682",
            "Transition Sandbox listening on http://127.0.0.1/", "Transition Sandbox listening on http://:80/",
            "Transition Sandbox listening on http://127.0.0.1:0/",
            "Transition Sandbox listening on http://127.0.0.1:70000/",
            "Transition Sandbox listening on http://127.0.0.1:80",
            "Transition Sandbox listening on http://127.0.0.1:80/ (1 service threads)",
            "Transition Sandbox listening on http://127.0.0.1:80/ (x service threads)",
            "Transition Sandbox listening on httpss://127.0.0.1:80/",
            "Transition Sandbox listening on ftp://127.0.0.1:80/",
            "Transition Sandbox listening on http://127.0.0.1:80/ extra",
        ])
    func refused(text: String) {
        #expect(ReadyLine(parsing: text) == nil)
    }
}
