import sys

from deploy_server.launcher import serve
from deploy_server.server import build_server

if __name__ == "__main__":
    serve(build_server, sys.argv[1:])
