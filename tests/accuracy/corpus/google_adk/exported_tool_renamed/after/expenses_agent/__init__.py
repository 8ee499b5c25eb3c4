
from . import agent
