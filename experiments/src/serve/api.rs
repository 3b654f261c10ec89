//! The HTTP side of `shifu serve`: the routes, the table map and the checks every request
//! passes. Every refusal is a 4xx with `{"error": "..."}` naming the problem, and leaves the
//! table as it was; nothing a request holds is unwrapped.
//!
//! - `GET /api/games`: the games and their player counts;
//! - `POST /api/tables` `{game, players, humans: [seat...], agents: [spec...], seed?, set?}`:
//!   a new table; answers each human seat's secret token and the table page's URL;
//! - `GET /api/tables/{id}?seat=K&token=T`: seat K's view ([`View`]);
//! - `POST /api/tables/{id}/act` `{seat, token, action}`: plays legal action `action` (an index
//!   in the view's `legal`), then the bots move until a person is to move; answers the view.

use super::table::{GameTable, Refusal, Setup, Table, View};
use super::{pages, Config};
use crate::games::Playable;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Largest request body read (a larger one gets 413).
pub const MAX_BODY: usize = 64 * 1024;

/// A refused request: its status and what was wrong.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError(status, message.into())
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Bad(m) => ApiError(StatusCode::BAD_REQUEST, m),
            Refusal::Conflict(m) => ApiError(StatusCode::CONFLICT, m),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        // A body of the wrong shape is a bad request too (axum says 422).
        let status = match r.status() {
            StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
            s => s,
        };
        ApiError(status, r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (self.0, Json(Body { error: self.1 })).into_response()
    }
}

/// One table in the map: its secret tokens (fixed at creation) and the game behind a lock.
pub struct Slot {
    id: String,
    /// Its number in this server's run (the log line's `game`).
    index: u64,
    /// Each seat's token; none for a bot's seat.
    tokens: Vec<Option<String>>,
    table: Arc<tokio::sync::Mutex<Box<dyn Table>>>,
    over: AtomicBool,
    /// When a request last used it, in milliseconds since the server started.
    touched: AtomicU64,
}

/// The server's state: the tables and the settings.
pub struct Server {
    config: Config,
    tables: Mutex<HashMap<String, Arc<Slot>>>,
    /// Tables being created (counted against the cap before they are in the map).
    pending: AtomicUsize,
    created: AtomicU64,
    started: Instant,
}

impl Server {
    /// A server with no tables.
    pub fn new(config: Config) -> Server {
        Server {
            config,
            tables: Mutex::new(HashMap::new()),
            pending: AtomicUsize::new(0),
            created: AtomicU64::new(0),
            started: Instant::now(),
        }
    }

    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        // The map holds no invariant a panic could break half-way.
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        let slot = self
            .map()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, format!("no table `{id}`")))?;
        slot.touched.store(self.now_ms(), Ordering::Relaxed);
        Ok(slot)
    }

    /// Makes room for one more table: drops the oldest finished tables, then abandons tables
    /// idle past the limit; reserves the place, or refuses when the tables are all in play.
    fn reserve(&self) -> Result<(), ApiError> {
        let mut map = self.map();
        let now = self.now_ms();
        let idle = self.config.idle.as_millis() as u64;
        while map.len() + self.pending.load(Ordering::SeqCst) >= self.config.max_tables {
            let finished = map
                .values()
                .filter(|s| s.over.load(Ordering::SeqCst))
                .min_by_key(|s| s.touched.load(Ordering::Relaxed));
            // A table whose bots are moving is not idle, whatever its clock says.
            let stale = || {
                map.values()
                    .filter(|s| now.saturating_sub(s.touched.load(Ordering::Relaxed)) > idle)
                    .filter(|s| s.table.try_lock().is_ok())
                    .min_by_key(|s| s.touched.load(Ordering::Relaxed))
            };
            let Some(victim) = finished.or_else(stale).cloned() else {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "all {} tables are in play (--max-tables); finish or leave one first",
                        self.config.max_tables
                    ),
                ));
            };
            map.remove(&victim.id);
            if !victim.over.load(Ordering::SeqCst) {
                if let Ok(table) = victim.table.try_lock() {
                    self.write_log(&victim, table.as_ref());
                }
            }
        }
        self.pending.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Writes the table's game log: `<id>.jsonl` when finished, `<id>.abandoned.jsonl` if not.
    fn write_log(&self, slot: &Slot, table: &dyn Table) {
        let name = if table.is_over() {
            format!("{}.jsonl", slot.id)
        } else {
            format!("{}.abandoned.jsonl", slot.id)
        };
        let path = self.config.logs.join(name);
        let mut text = Vec::new();
        let written = table
            .log_line(slot.index)
            .write(&mut text)
            .map_err(anyhow::Error::from)
            .and_then(|()| shifu_engine::files::write_atomic(&path, &text).map_err(Into::into));
        if let Err(e) = written {
            eprintln!("shifu serve: cannot write {}: {e:#}", path.display());
        }
    }

    /// Logs every unfinished table as abandoned (when the server stops); returns how many.
    pub async fn abandon_all(&self) -> usize {
        let slots: Vec<Arc<Slot>> = self.map().drain().map(|(_, s)| s).collect();
        let mut n = 0;
        for slot in slots {
            if !slot.over.load(Ordering::SeqCst) {
                let table = slot.table.lock().await;
                self.write_log(&slot, table.as_ref());
                n += 1;
            }
        }
        n
    }
}

/// The routes. Anything else is a 404; no route reads a file.
pub fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/", get(pages::lobby))
        .route("/table/{id}", get(table_page))
        .route("/assets/{name}", get(pages::asset))
        .route("/api/games", get(pages::games))
        .route("/api/tables", post(create))
        .route("/api/tables/{id}", get(view))
        .route("/api/tables/{id}/act", post(act))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

async fn table_page(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    server.slot(&id)?;
    Ok(pages::table())
}

/// `POST /api/tables`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// The game's name.
    pub game: String,
    /// Seats.
    pub players: u8,
    /// The seats people play, from 1.
    pub humans: Vec<u8>,
    /// One agent spec for every bot seat, or one per seat (human seats' entries are ignored).
    #[serde(default)]
    pub agents: Vec<String>,
    /// The game's seed (drawn at random when absent).
    pub seed: Option<u64>,
    /// Parameter overrides, `KEY=VALUE` as `--set` takes them.
    #[serde(default)]
    pub set: Vec<String>,
}

/// Most parameter overrides a table takes.
const MAX_SET: usize = 64;

/// A human seat of a new table.
#[derive(Debug, Serialize)]
pub struct SeatTicket {
    /// The seat, from 1.
    pub seat: u8,
    /// Its secret token.
    pub token: String,
    /// The table page for this seat.
    pub url: String,
}

/// `POST /api/tables`'s answer.
#[derive(Debug, Serialize)]
pub struct Created {
    /// The table's id.
    pub table: String,
    /// Seats.
    pub players: u8,
    /// Each human seat's ticket.
    pub seats: Vec<SeatTicket>,
}

/// `count` random bytes from the operating system, as hex.
fn secret(bytes: usize) -> Result<String, ApiError> {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.try_fill_bytes(&mut buf).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no OS randomness: {e}"),
        )
    })?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// The table setup a request asks for, checked against the game's seats.
fn setup(req: &NewTable) -> Result<Setup, ApiError> {
    let bad = |m: String| ApiError::new(StatusCode::BAD_REQUEST, m);
    let info = shifu_engine::GAMES
        .iter()
        .find(|g| g.name == req.game)
        .ok_or_else(|| {
            bad(format!(
                "field game: unknown game `{}`; the games: {}",
                req.game,
                crate::games::names().join(", ")
            ))
        })?;
    let n = req.players;
    if !info.players().contains(&n) {
        return Err(bad(format!(
            "field players: {} takes {} to {} players, not {n}",
            info.name, info.min_players, info.max_players
        )));
    }
    let mut humans = vec![false; usize::from(n)];
    for &h in &req.humans {
        if h == 0 || h > n {
            return Err(bad(format!(
                "field humans: seat {h}: seats are numbered 1 to {n}"
            )));
        }
        humans[usize::from(h - 1)] = true;
    }
    if req.set.len() > MAX_SET {
        return Err(bad(format!(
            "field set: {} overrides; at most {MAX_SET}",
            req.set.len()
        )));
    }
    if !humans.contains(&true) {
        return Err(bad("field humans: give at least one human seat".into()));
    }
    let agents = match req.agents.len() {
        0 => vec!["random".to_string(); usize::from(n)],
        1 => vec![req.agents[0].clone(); usize::from(n)],
        k if k == usize::from(n) => req.agents.clone(),
        k => {
            return Err(bad(format!(
                "field agents: {k} specs for {n} seats; give one for all or one per seat"
            )))
        }
    };
    let seed = match req.seed {
        Some(s) => s,
        None => u64::from_str_radix(&secret(8)?, 16).unwrap_or(0),
    };
    Ok(Setup {
        humans,
        agents,
        seed,
    })
}

/// Builds the table of `req` and lets the bots move first where they do.
fn build(req: &NewTable, setup: &Setup, server: &Server) -> Result<Box<dyn Table>, ApiError> {
    let built: anyhow::Result<Result<Box<dyn Table>, ApiError>> =
        crate::with_game!(req.game.as_str(), G => Ok(new_table::<G>(req, setup)));
    let mut table =
        built.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("{e:#}")))??;
    table.run_bots(server.config.per_move);
    Ok(table)
}

/// A new table of game `G`.
fn new_table<G: Playable>(req: &NewTable, setup: &Setup) -> Result<Box<dyn Table>, ApiError> {
    let game: G = crate::setup::GameArgs {
        game: req.game.clone(),
        players: Some(req.players),
        data: None,
        config: None,
        set: req.set.clone(),
    }
    .build()
    .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("{e:#}")))?;
    Ok(Box::new(GameTable::new(game, setup)?))
}

async fn create(
    State(server): State<Arc<Server>>,
    body: Result<Json<NewTable>, JsonRejection>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let Json(req) = body?;
    let setup = setup(&req)?;
    let id = secret(8)?;
    let tokens: Vec<Option<String>> = setup
        .humans
        .iter()
        .map(|&h| if h { secret(16).map(Some) } else { Ok(None) })
        .collect::<Result<_, _>>()?;
    server.reserve()?;
    let s = server.clone();
    let made = tokio::task::spawn_blocking(move || {
        let table = build(&req, &setup, &s)?;
        Ok::<_, ApiError>((table, req.players))
    })
    .await;
    server.pending.fetch_sub(1, Ordering::SeqCst);
    let (table, players) = made.map_err(internal)??;
    let over = table.is_over();
    let slot = Arc::new(Slot {
        id: id.clone(),
        index: server.created.fetch_add(1, Ordering::SeqCst),
        tokens: tokens.clone(),
        table: Arc::new(tokio::sync::Mutex::new(table)),
        over: AtomicBool::new(over),
        touched: AtomicU64::new(server.now_ms()),
    });
    if over {
        if let Ok(table) = slot.table.try_lock() {
            server.write_log(&slot, table.as_ref());
        }
    }
    server.map().insert(id.clone(), slot);
    let seats = tokens
        .into_iter()
        .enumerate()
        .filter_map(|(s, t)| {
            t.map(|token| SeatTicket {
                seat: s as u8 + 1,
                url: format!("/table/{id}#seat={}&token={token}", s + 1),
                token,
            })
        })
        .collect();
    Ok((
        StatusCode::CREATED,
        Json(Created {
            table: id,
            players,
            seats,
        }),
    ))
}

/// A panicked or cancelled bot task.
fn internal(e: tokio::task::JoinError) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the table's task failed: {e}"),
    )
}

/// Checks that `token` is seat `seat`'s (from 1) at `slot`; answers the seat from 0.
fn authorize(slot: &Slot, seat: u8, token: &str) -> Result<u8, ApiError> {
    let n = slot.tokens.len();
    if seat == 0 || usize::from(seat) > n {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("seat {seat}: the table's seats are numbered 1 to {n}"),
        ));
    }
    let forbidden = || {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("wrong token for seat {seat} (or a bot's seat)"),
        )
    };
    let want = slot.tokens[usize::from(seat - 1)]
        .as_deref()
        .ok_or_else(forbidden)?;
    // Compared in time independent of where they differ.
    let same = want.len() == token.len()
        && want
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if same {
        Ok(seat - 1)
    } else {
        Err(forbidden())
    }
}

/// `GET /api/tables/{id}`'s query.
#[derive(Debug, Deserialize)]
pub struct SeatQuery {
    /// The seat, from 1.
    pub seat: u8,
    /// Its token.
    pub token: String,
}

async fn view(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    query: Result<Query<SeatQuery>, QueryRejection>,
) -> Result<Json<View>, ApiError> {
    let slot = server.slot(&id)?;
    let Query(q) = query?;
    let seat = authorize(&slot, q.seat, &q.token)?;
    let table = slot.table.lock().await;
    Ok(Json(table.view(seat)))
}

/// `POST /api/tables/{id}/act`'s body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActBody {
    /// The seat, from 1.
    pub seat: u8,
    /// Its token.
    pub token: String,
    /// The action's index in the seat's legal list.
    pub action: u64,
}

async fn act(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    body: Result<Json<ActBody>, JsonRejection>,
) -> Result<Json<View>, ApiError> {
    let slot = server.slot(&id)?;
    let Json(req) = body?;
    let seat = authorize(&slot, req.seat, &req.token)?;
    let mut table = slot.table.clone().lock_owned().await;
    let s = server.clone();
    tokio::task::spawn_blocking(move || {
        table.act(seat, req.action)?;
        table.run_bots(s.config.per_move);
        if table.is_over() && !slot.over.swap(true, Ordering::SeqCst) {
            s.write_log(&slot, table.as_ref());
        }
        Ok(Json(table.view(seat)))
    })
    .await
    .map_err(internal)?
}
