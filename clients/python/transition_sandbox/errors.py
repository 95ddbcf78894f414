"""The errors the client raises: one base class, so `except SandboxError` catches them all."""


class SandboxError(Exception):
    """Anything the client could not do."""


class ServerError(SandboxError):
    """The server refused a message: its `error` reply (docs/PROTOCOL.md "error"). Nothing
    changed on the server; the connection is still open."""

    def __init__(self, message):
        self.reply = message
        self.code = message.get("code")
        self.field = message.get("field")
        self.seq = message.get("seq")
        self.id = message.get("id")
        super().__init__(f"{self.code}: {message.get('message', '')}")


class ProtocolError(SandboxError):
    """The server sent something the protocol does not allow (not JSON, not an object, too
    deep, a number beyond a double, …). The client stops reading from that connection."""


class Timeout(SandboxError, TimeoutError):
    """What was awaited did not come within the client's timeout."""


class ConnectionClosed(SandboxError):
    """The connection is closed (by either side); `code` and `reason` are the close frame's,
    None when there was none."""

    def __init__(self, code=None, reason=""):
        self.code = code
        self.reason = reason
        detail = f"code {code}" if code is not None else "no close frame"
        super().__init__(f"the connection is closed ({detail}{': ' + reason if reason else ''})")


class ScriptError(SandboxError):
    """A pan script that cannot be read or played: says where and what (docs/SCRIPTS.md)."""
