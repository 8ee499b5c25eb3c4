from . import agent
