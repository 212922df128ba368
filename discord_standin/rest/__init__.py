"""Discord's REST API as the stand-in serves it, one module per resource.

:class:`RestApi` (``api``) records, faults and routes each request; ``routing`` and
``resource`` hold what the resources (``users``, ``commands``, ``guilds``,
``scheduled_events``, ``messages``,
``interactions``) share.
"""

from .api import RestApi
from .routing import API_PREFIX, RecordedRequest

__all__ = ["API_PREFIX", "RecordedRequest", "RestApi"]
