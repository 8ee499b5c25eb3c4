from storage.server import mcp
print 'old python 2 script'
