//! iroh's relay server on a free loopback port, over plain HTTP, in the test's own process:
//! online play is tested with no internet.

use std::net::Ipv4Addr;

use iroh_relay::server::{RelayConfig, Server, ServerConfig};

/// A running relay; dropped, it stops.
pub struct LocalRelay {
    server: Option<Server>,
    runtime: tokio::runtime::Runtime,
    /// What `--relay` takes: `http://127.0.0.1:PORT`.
    pub url: String,
}

impl LocalRelay {
    pub fn start() -> LocalRelay {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let server = runtime
            .block_on(async {
                let mut config = ServerConfig::default();
                config.relay = Some(RelayConfig::new((Ipv4Addr::LOCALHOST, 0)));
                Server::spawn(config).await
            })
            .expect("the relay starts");
        let url = format!("http://{}", server.http_addr().expect("plain HTTP"));
        LocalRelay {
            server: Some(server),
            runtime,
            url,
        }
    }
}

impl Drop for LocalRelay {
    fn drop(&mut self) {
        let _inside = self.runtime.enter();
        drop(self.server.take());
    }
}
