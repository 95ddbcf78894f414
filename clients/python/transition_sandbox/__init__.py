"""A Python client for the Transition Sandbox server (docs/PROTOCOL.md): connect over ws:// or
wss://, drive the pan and the scene, read whole frames and events, replay pan scripts
(docs/SCRIPTS.md) as `sandbox pan --url` does."""
from .assembler import FrameAssembler, assemble
from .client import SUBPROTOCOLS, Client, connect, ssl_context
from .errors import ConnectionClosed, ProtocolError, SandboxError, ScriptError, ServerError, Timeout
from .report import Report, disagreements
from .runner import run_script
from .script import PanScript, load_script, parse_script

__version__ = "0.1.0"
__all__ = ["Client", "ConnectionClosed", "FrameAssembler", "PanScript", "ProtocolError", "Report", "SUBPROTOCOLS",
           "SandboxError", "ScriptError", "ServerError", "Timeout", "assemble", "connect", "disagreements",
           "load_script", "parse_script", "run_script", "ssl_context"]
