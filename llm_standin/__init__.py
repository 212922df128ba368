"""A local stand-in for an OpenAI-compatible chat-completions API (`POST /v1/chat/completions`),
for tests and manual runs of the AI summaries: deterministic answers in the asked language, and
faults on demand (429 with Retry-After, 5xx, slow answers, malformed JSON, huge answers,
refusals, answers in the wrong language or full of mentions, links and Markdown)."""

from .faults import FaultKind, LlmFault
from .server import LlmStandIn, RecordedRequest

__all__ = ["FaultKind", "LlmFault", "LlmStandIn", "RecordedRequest"]
