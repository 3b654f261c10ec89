//! The pages and assets of `shifu serve`, all compiled into the binary: the lobby, the table
//! page, their scripts (the board drawing is the replay page's, `web/board.js`) and styles.
//! An asset is looked up by name in a fixed list, so no request reaches the disk.
//!
//! Stable hooks for a browser test, on the table page: `#board` (the SVG), `#status`,
//! `#actions button.action[data-action=INDEX]` (the seat's legal actions, by name), `#message`,
//! `#result` (a row per seat, `tr[data-seat][data-score][data-rank]`, once the game is over)
//! and `#action-list`. On the lobby: `#game`, `#players`, `#seats` (per seat
//! `input.human[data-seat]` and `input.agent[data-seat]`), `#seed`, `#set`, `#create`, `#tickets`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// Every asset served, by name: its content type and text.
const ASSETS: [(&str, &str, &str); 6] = [
    (
        "board.js",
        "text/javascript; charset=utf-8",
        crate::replay::page::BOARD_SCRIPT,
    ),
    (
        "table.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/table.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/lobby.js"),
    ),
    (
        "page.css",
        "text/css; charset=utf-8",
        include_str!("../replay/page.css"),
    ),
    ("icon.svg", "image/svg+xml", include_str!("../web/icon.svg")),
    (
        "serve.css",
        "text/css; charset=utf-8",
        include_str!("../web/serve.css"),
    ),
];

/// Pages load only this server's own scripts and styles, and talk only to it.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn page(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<link rel=\"icon\" type=\"image/svg+xml\" href=\"/assets/icon.svg\">\n<link rel=\"stylesheet\" href=\"/assets/page.css\">\n\
         <link rel=\"stylesheet\" href=\"/assets/serve.css\">\n</head>\n"
    )
}

/// `GET /`: the lobby, where a table is set up.
pub async fn lobby() -> Response {
    page(format!(
        "{}<body>\n<header><h1>shifu serve: play against the bots</h1>\
         <p id=\"origin\">Choose a game, the seats you play and an agent for every other seat.</p></header>\n\
         <main><section id=\"lobby\">\
         <p><label>Game <select id=\"game\"></select></label> \
         <label>Players <input id=\"players\" type=\"number\" min=\"1\" max=\"8\" value=\"2\"></label> \
         <label>Seed <input id=\"seed\" type=\"text\" inputmode=\"numeric\" placeholder=\"random\" size=\"12\"></label> \
         <label>Parameters <input id=\"set\" type=\"text\" placeholder=\"KEY=VALUE; KEY=VALUE\" size=\"32\"></label></p>\
         <table id=\"seats\"></table>\
         <p><button id=\"create\">Start the table</button></p>\
         <p id=\"message\"></p><ul id=\"tickets\"></ul>\
         <p class=\"note\">Agent specs as on the command line: random, greedy, mcts:iters=500, ...; \
         a spec may not name a file. Each human seat gets a secret link: open the others in new tabs to play them too.</p>\
         </section></main>\n<script src=\"/assets/lobby.js\"></script>\n</body>\n</html>\n",
        head("shifu serve")
    ))
}

/// `GET /table/{id}`: a table, seen by the seat its link names (`#seat=K&token=T`: the
/// fragment never reaches the server's request line).
pub fn table() -> Response {
    page(format!(
        "{}<body>\n<header><h1 id=\"title\">shifu serve</h1><p id=\"origin\"></p></header>\n\
         <main><section id=\"board-area\"><p id=\"status\"></p><svg id=\"board\" \
         xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"200\"></svg></section>\n\
         <aside><h2>Your move</h2><p id=\"message\"></p><div id=\"actions\"></div>\
         <h2>Result</h2><table id=\"result\"></table>\
         <h2>Actions</h2><ol id=\"action-list\" start=\"1\"></ol></aside></main>\n\
         <script src=\"/assets/board.js\"></script>\n<script src=\"/assets/table.js\"></script>\n\
         </body>\n</html>\n",
        head("shifu serve: table")
    ))
}

/// `GET /assets/{name}`: one of the compiled-in assets, or 404.
pub async fn asset(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => (
            [
                (header::CONTENT_TYPE, *kind),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            *text,
        )
            .into_response(),
        None => super::api::ApiError(StatusCode::NOT_FOUND, format!("no asset `{name}`"))
            .into_response(),
    }
}

/// A game the lobby offers.
#[derive(Serialize)]
pub struct GameEntry {
    /// Its name.
    pub name: &'static str,
    /// Its name in prose.
    pub title: &'static str,
    /// The fewest players.
    pub min_players: u8,
    /// The most players.
    pub max_players: u8,
}

/// `GET /api/games`: the games and their player counts.
pub async fn games() -> Json<Vec<GameEntry>> {
    Json(
        shifu_engine::GAMES
            .iter()
            .map(|g| GameEntry {
                name: g.name,
                title: g.title,
                min_players: g.min_players,
                max_players: g.max_players,
            })
            .collect(),
    )
}
