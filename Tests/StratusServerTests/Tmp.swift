import Testing; import AsyncHTTPClient
