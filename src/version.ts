/** The API's version: in /health, the OpenAPI document and the MCP server's handshake. */
export const API_VERSION = '0.1.0';
