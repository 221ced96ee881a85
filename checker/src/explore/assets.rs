//! The explorer's page: plain HTML, CSS and JavaScript from
//! `checker/assets/`, compiled into the binary so that it is served offline
//! (no CDN, no build step, no file read at run time).

/// The page.
pub const INDEX_HTML: &str = include_str!("../../assets/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("../../assets/app.js");
/// Its style sheet.
pub const STYLE_CSS: &str = include_str!("../../assets/style.css");
/// Its icon.
pub const FAVICON_SVG: &str = include_str!("../../assets/favicon.svg");

/// The content security policy of every asset: scripts, styles, fetches
/// and images from the server itself only. Styles may be inline because
/// the CFG pictures (layout-rs SVG) carry a `<style>` element.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// The asset at `path` and its content type.
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    Some(match path {
        "/" | "/index.html" => (INDEX_HTML, "text/html; charset=utf-8"),
        "/app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "/style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        "/favicon.svg" | "/favicon.ico" => (FAVICON_SVG, "image/svg+xml"),
        _ => return None,
    })
}
