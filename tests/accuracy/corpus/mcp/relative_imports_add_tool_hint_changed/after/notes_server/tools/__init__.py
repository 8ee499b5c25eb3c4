
from . import read, write  # noqa: F401  (registration side effects)
