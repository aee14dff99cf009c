//! The server's shared state: a cheap `Clone` over one `Arc`, holding the tools, the workflow
//! library, the configuration status, the runs, the chat, the access token, the limits and
//! the prices.

use crate::chat::Chats;
use crate::limits::Limits;
use std::sync::Arc;
use tokio::sync::Semaphore;
use vai_chat::{ChatEngine, ChatOptions};
use vai_contract::ConfigStatus;
use vai_providers::Pricing;
use vai_runtime::AccessToken;
use vai_runtime::{BeforeRun, Library, RunManager};
use vai_serve::HostGuard;
use vai_workflow::{Limits as RunLimits, Registry};

/// What the composition root hands the server.
pub struct ServerSettings {
    pub registry: Arc<Registry>,
    pub library: Library,
    pub config: ConfigStatus,
    /// The port the server listens on; requests must name it in `Host` (and `Origin`).
    pub port: u16,
    /// Host names besides the loopback ones that requests may name (the `--host` address when
    /// it is not loopback).
    pub extra_hosts: Vec<String>,
    pub before_run: Option<BeforeRun>,
    /// What every `/api` request must present (docs/api.md, "Access token").
    pub token: AccessToken,
    /// The server's own limits: connections, runs, kept results, sockets.
    pub limits: Limits,
    /// Bounds on the values runs make (`.vai.json` `limits`).
    pub run_limits: RunLimits,
    /// The Chat panel's engine; without one the chat routes say chat is not available.
    pub chat: Option<ChatEngine>,
    /// How chat answers unless a question says otherwise (`.vai.json` `chat`).
    pub chat_options: ChatOptions,
    /// Where runs are journaled (the data directory's `runs/`, or the team's shared store
    /// `.vai.json` chooses), so a run that waits for a person or was cut off by a restart is
    /// found again; `None`: in memory only.
    pub run_journals: Option<Arc<dyn vai_workflow::journal::RunBackend>>,
    /// What model calls cost (`/api/pricing`): the price table with `.vai.json`'s overrides.
    pub pricing: Pricing,
}

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub(crate) struct Inner {
    pub(crate) registry: Arc<Registry>,
    pub(crate) library: Library,
    pub(crate) config: ConfigStatus,
    pub(crate) port: u16,
    /// The names requests must give this server.
    pub(crate) guard: HostGuard,
    pub(crate) runs: RunManager,
    pub(crate) token: AccessToken,
    pub(crate) limits: Limits,
    /// One permit per open run socket.
    pub(crate) sockets: Arc<Semaphore>,
    pub(crate) chat: Option<Chats>,
    pub(crate) pricing: Pricing,
}

impl AppState {
    pub fn new(settings: ServerSettings) -> Self {
        let runs = RunManager::new(
            settings.registry.clone(),
            settings.before_run,
            settings.limits.run_budget(),
            settings.run_limits,
        );
        let runs = match settings.run_journals {
            Some(store) => runs.with_journals(store),
            None => runs,
        };
        let port = settings.port;
        let guard = HostGuard::new(port, &settings.extra_hosts);
        let chat = settings.chat.map(|engine| {
            Chats::new(
                engine,
                settings.chat_options,
                settings.limits.max_chat_turns,
            )
        });
        Self(Arc::new(Inner {
            registry: settings.registry,
            library: settings.library,
            config: settings.config,
            port,
            guard,
            runs,
            token: settings.token,
            sockets: Arc::new(Semaphore::new(settings.limits.max_sockets)),
            limits: settings.limits,
            chat,
            pricing: settings.pricing,
        }))
    }

    pub fn runs(&self) -> &RunManager {
        &self.0.runs
    }

    pub fn limits(&self) -> &Limits {
        &self.0.limits
    }

    pub(crate) fn chat(&self) -> Option<&Chats> {
        self.0.chat.as_ref()
    }

    pub(crate) fn inner(&self) -> &Inner {
        &self.0
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("port", &self.0.port)
            .finish_non_exhaustive()
    }
}
