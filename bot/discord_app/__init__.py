"""The Discord process: the client, its command tree and translator, the one send
funnel, and the connection that retries until Discord answers."""
