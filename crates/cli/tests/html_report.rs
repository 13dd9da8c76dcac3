//! The HTML report in a real browser: `warpscope report` writes a page, headless Chromium
//! (Debian's `chromium`, driven over the DevTools protocol) opens it, and the test checks that
//! it renders without console errors or network requests, with the charts and card rows of the
//! profile, the model and the cache, that switching the heat-map metric (the profile's, the
//! model's, the cache's) repaints the source, that clicking a ranked-table row scrolls to its
//! line, that a line number shows its PTX, and that screenshots have the viewport's size, are
//! not blank and change with the metric.
//!
//! Without Chromium (`$WARPSCOPE_CHROMIUM`, `chromium`, `chromium-browser`, `google-chrome`)
//! the test prints a SKIPPED line straight to the terminal (past the harness's capture) and
//! passes; `.ci/run` installs Chromium so CI runs it.

mod common;

use base64::Engine as _;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

const WIDTH: u32 = 1280;
const HEIGHT: u32 = 900;

fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WARPSCOPE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Says SKIPPED where the harness does not capture it (it captures `eprintln!` only).
fn skipped(why: &str) {
    let _ = writeln!(std::io::stderr(), "\nSKIPPED html_report: {why}\n");
}

/// A headless Chromium and one page of it, attached over the DevTools protocol.
struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    events: Vec<Value>,
    _profile_dir: TempDir,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch(exe: &Path) -> Browser {
        let dir = std::env::temp_dir().join(format!("warpscope-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
                &format!("--window-size={WIDTH},{HEIGHT}"),
            ])
            .arg(format!("--user-data-dir={}", dir.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        // Chromium prints the browser's DevTools address on stderr; keep draining it after.
        let (tx, rx) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(i) = line.find("ws://") {
                    let _ = tx.send(line[i..].trim().to_string());
                }
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("chromium printed no DevTools address within 60 s");
        let (ws, _) = tungstenite::connect(url.as_str()).expect("connect to DevTools");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        }
        let mut b = Browser {
            child,
            ws,
            session: String::new(),
            next_id: 0,
            events: Vec::new(),
            _profile_dir: TempDir(dir),
        };
        let target = b.call_browser("Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call_browser(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in [
            "Runtime.enable",
            "Log.enable",
            "Page.enable",
            "Network.enable",
        ] {
            b.call(domain, json!({}));
        }
        b.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": false}),
        );
        b
    }

    fn send(&mut self, method: &str, params: Value, session: bool) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if session {
            msg["sessionId"] = json!(self.session);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .expect("send to DevTools");
        loop {
            let m = self.ws.read().expect("read from DevTools");
            let Ok(text) = m.to_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            if v["id"].as_u64() == Some(id) {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
            if v.get("method").is_some() {
                self.events.push(v);
            }
        }
    }

    fn call_browser(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, false)
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, true)
    }

    /// Evaluates `expr` in the page and returns its (JSON) value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("evaluating `{expr}`: {e}");
        }
        r["result"]["value"].clone()
    }

    fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        let start = Instant::now();
        while self.eval("document.readyState") != json!("complete") {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "page did not load"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn click(&mut self, x: f64, y: f64) {
        for t in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": t, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// A PNG of the viewport, decoded: (width, height, RGB(A) bytes, channels).
    fn screenshot(&mut self, save: &Path) -> Shot {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(r["data"].as_str().unwrap())
            .unwrap();
        std::fs::write(save, &bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        Shot {
            width: info.width,
            height: info.height,
            channels: info.color_type.samples(),
            pixels: buf,
        }
    }

    /// Console errors, uncaught exceptions and requests for anything but the file itself.
    fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for e in &self.events {
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.exceptionThrown" => out.push(format!("exception: {p}")),
                "Runtime.consoleAPICalled" if p["type"] == "error" => {
                    out.push(format!("console.error: {}", p["args"]))
                }
                "Log.entryAdded" if p["entry"]["level"] == "error" => {
                    out.push(format!("log: {}", p["entry"]["text"]))
                }
                "Network.requestWillBeSent" => {
                    let url = p["request"]["url"].as_str().unwrap_or("");
                    if !url.starts_with("file:") && !url.starts_with("data:") {
                        out.push(format!("network request: {url}"));
                    }
                }
                _ => {}
            }
        }
        out
    }
}

struct Shot {
    width: u32,
    height: u32,
    channels: usize,
    pixels: Vec<u8>,
}

impl Shot {
    fn rgb(&self, x: u32, y: u32) -> (u8, u8, u8) {
        let i = (y as usize * self.width as usize + x as usize) * self.channels;
        (self.pixels[i], self.pixels[i + 1], self.pixels[i + 2])
    }

    /// Fraction of pixels that are not (near) white.
    fn ink(&self) -> f64 {
        let mut n = 0usize;
        for y in 0..self.height {
            for x in 0..self.width {
                let (r, g, b) = self.rgb(x, y);
                if r < 235 || g < 235 || b < 235 {
                    n += 1;
                }
            }
        }
        n as f64 / (self.width as f64 * self.height as f64)
    }

    /// Pixels of the heat map's orange (red well above blue), per horizontal band of 30 rows.
    fn heat_profile(&self) -> Vec<usize> {
        (0..self.height / 30)
            .map(|band| {
                let mut n = 0;
                for y in band * 30..(band + 1) * 30 {
                    for x in (0..self.width).step_by(4) {
                        let (r, g, b) = self.rgb(x, y);
                        if r > 200 && i32::from(r) - i32::from(b) > 40 && g < r {
                            n += 1;
                        }
                    }
                }
                n
            })
            .collect()
    }
}

/// What the heat map shows: each source row's colour and printed value.
const PAINT: &str = "JSON.stringify([...document.querySelectorAll('tr.ln')]\
                     .map(r => r.style.background + '|' + r.querySelector('td.val').textContent))";

/// Chooses `metric` in the heat-map menu (value set, `change` fired, as a user's choice does)
/// and checks that the map was repainted from `before` and that the hottest rows are those
/// holding the metric's largest value. Returns the new paint.
fn switch_metric(b: &mut Browser, metric: &str, before: &Value) -> Value {
    let switched = b.eval(&format!(
        "(() => {{ const s = document.getElementById('metric'); s.value = '{metric}'; \
         s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value; }})()"
    ));
    assert_eq!(switched, json!(metric), "{metric} is not in the menu");
    let after = b.eval(PAINT);
    assert_ne!(
        *before, after,
        "switching to {metric} left the heat map unchanged"
    );
    let hottest = b.eval(&format!(
        "(() => {{ const rows = [...document.querySelectorAll('tr.ln')]; \
         const v = r => (JSON.parse(r.dataset.v || '{{}}')['{metric}'] ?? -1); \
         const max = Math.max(...rows.map(v)); \
         const top = rows.filter(r => r.dataset.heat === '1.000').map(r => v(r)); \
         return [max, top.length, top.every(x => x === max)]; }})()"
    ));
    assert!(hottest[0].as_f64().unwrap() > 0.0, "{metric}: {hottest}");
    assert!(hottest[1].as_u64().unwrap() >= 1, "{metric}: {hottest}");
    assert_eq!(hottest[2], json!(true), "{metric}: {hottest}");
    after
}

#[test]
fn report_renders_and_reacts_in_chromium() {
    let Some(exe) = chromium() else {
        skipped("no chromium (install Debian's `chromium`, or set WARPSCOPE_CHROMIUM)");
        return;
    };
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html_report");
    std::fs::create_dir_all(&out).unwrap();
    let page = out.join("branch_tid.html");
    let (code, _, err) = common::warpscope(&[
        "report",
        "corpus/branch_tid.toml",
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "warpscope report failed: {err}");

    let mut b = Browser::launch(&exe);
    b.open(&format!("file://{}", page.display()));

    // Renders: the sections are there and no script failed.
    let sections = b.eval(
        "['cards','source','findings','tables','charts','cfg']\
         .filter(id => document.getElementById(id)).length",
    );
    assert_eq!(sections, json!(6), "a section is missing");
    // The charts of each mode: profile, model and cache (with its L1 sweep).
    let charts = b.eval("document.getElementById('charts').textContent");
    let charts = charts.as_str().unwrap();
    for title in [
        "SIMT efficiency per kernel",
        "Model: estimated cycles per kernel",
        "Cache: L1 load misses by fault type",
        "Cache sweep: global-load sector hits and misses against L1 size",
    ] {
        assert!(charts.contains(title), "no chart `{title}`");
    }
    // One card per kernel with the rows of every mode.
    let card = b.eval(
        "[...document.querySelectorAll('#cards .card')].find(c => c.querySelector('h3')\
         .textContent === 'odd_even').textContent",
    );
    let card = card.as_str().unwrap();
    for row in [
        "SIMT efficiency",
        "divergence cost",
        "L1 hit rate",
        "L2 hit rate",
    ] {
        assert!(card.contains(row), "no `{row}` on the card: {card}");
    }

    // The first metric paints the source.
    b.eval("window.scrollTo(0, document.getElementById('source').offsetTop - 60)");
    let first_metric = b.eval("document.getElementById('metric').value");
    let shot_a = b.screenshot(&out.join("metric-a.png"));
    let paint = PAINT;
    let before = b.eval(paint);

    // Pick other metrics in the menu (as a user's choice does: value set, `change` fired):
    // the profile's excess sectors (screenshot b), then the model's and the cache's.
    let target_metric = "excess_sectors";
    assert_ne!(json!(target_metric), first_metric);
    let after = switch_metric(&mut b, target_metric, &before);
    let shot_b = b.screenshot(&out.join("metric-b.png"));
    for m in ["divergence_cost", "estimated_cycles", "cache_faults"] {
        let now = b.eval(paint);
        switch_metric(&mut b, m, &now);
    }
    assert_ne!(after, b.eval(paint));

    // Screenshots, structurally: the viewport's size, not blank, heat map drawn, and the
    // orange bands moved with the metric.
    for s in [&shot_a, &shot_b] {
        assert_eq!((s.width, s.height), (WIDTH, HEIGHT));
        let ink = s.ink();
        assert!(ink > 0.05, "screenshot nearly blank ({ink:.3} inked)");
    }
    let (ha, hb) = (shot_a.heat_profile(), shot_b.heat_profile());
    assert!(ha.iter().sum::<usize>() > 0, "no heat-map colour on screen");
    assert_ne!(
        ha, hb,
        "the screenshots show the same heat map for both metrics"
    );

    // A ranked-table row scrolls to its line.
    let row = b.eval(
        "(() => { const r = document.querySelector('#tables tr.link'); r.scrollIntoView({block: 'center'}); \
         const b = r.getBoundingClientRect(); \
         return [r.dataset.target, b.left + 20, b.top + b.height / 2, r.lastElementChild.textContent]; })()",
    );
    let target = row[0].as_str().unwrap().to_string();
    let visible = format!(
        "(() => {{ const b = document.getElementById('{target}').getBoundingClientRect(); \
         return b.top >= 0 && b.bottom <= window.innerHeight; }})()"
    );
    assert_eq!(b.eval(&visible), json!(false), "line already on screen");
    b.click(row[1].as_f64().unwrap(), row[2].as_f64().unwrap());
    assert_eq!(
        b.eval(&visible),
        json!(true),
        "clicking the row did not show {target}"
    );
    assert_eq!(b.eval("location.hash"), json!(format!("#{target}")));
    b.screenshot(&out.join("after-row-click.png"));

    // Clicking the line number shows the line's PTX.
    let no = b.eval(&format!(
        "(() => {{ const c = document.querySelector('#{target} td.no'); const b = c.getBoundingClientRect(); \
         return [b.left + b.width / 2, b.top + b.height / 2]; }})()"
    ));
    let ptx_hidden = format!("document.getElementById('ptx-{target}').hidden");
    assert_eq!(b.eval(&ptx_hidden), json!(true));
    b.click(no[0].as_f64().unwrap(), no[1].as_f64().unwrap());
    assert_eq!(
        b.eval(&ptx_hidden),
        json!(false),
        "PTX of {target} not shown"
    );
    let ptx = b.eval(&format!(
        "document.getElementById('ptx-{target}').textContent"
    ));
    // The row's instruction is among the line's PTX.
    let inst = row[3].as_str().unwrap();
    assert!(ptx.as_str().unwrap().contains(inst), "{inst} not in {ptx}");

    let problems = b.problems();
    assert!(problems.is_empty(), "{problems:#?}");
}
