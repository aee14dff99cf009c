//! Serving one client over this process's stdin and stdout (`vai mcp` without `--http`).

use crate::server::McpServer;
use tokio_util::sync::CancellationToken;

impl McpServer {
    /// Serve one client on this process's stdin and stdout until it closes them (or `stop`
    /// fires). Nothing else may write to stdout meanwhile.
    pub async fn serve_stdio(&self, stop: CancellationToken) -> std::io::Result<()> {
        use rmcp::ServiceExt;
        // The SDK cancels the token it is given when the connection ends; `stop` stays the
        // caller's, so it still tells whether the caller stopped the server.
        let service = self
            .connection()
            .serve_with_ct(rmcp::transport::stdio(), stop.child_token())
            .await
            .map_err(std::io::Error::other)?;
        let result = service.waiting().await;
        self.close();
        result.map(|_| ()).map_err(std::io::Error::other)
    }
}
