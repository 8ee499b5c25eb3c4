"""How long start-up steps take."""

import contextlib
import logging
import time

log = logging.getLogger(__name__)


@contextlib.contextmanager
def timed(what: str):
    start = time.monotonic()
    yield
    log.info("%s took %.3fs", what, time.monotonic() - start)
