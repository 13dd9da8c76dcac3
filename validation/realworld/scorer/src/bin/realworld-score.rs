//! `realworld-score`: runs `warpscope check` on every PTX module of the real-world evaluation
//! set and scores it against the H100 truth (see the library docs and
//! validation/realworld/README.md).
//!
//! ```text
//! cargo build --release -p warpscope && cargo run --release -p warpscope-realworld -- \
//!     [--warpscope target/release/warpscope] [--mode both] [--modules] [--floors FILE]
//! ```

use clap::Parser;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use warpscope_realworld::{
    Mode, check_floors, load_apps, modules_markdown, parse_floors, parse_skip,
    possible_reasons_text, score_all, summary_markdown,
};

#[derive(Parser)]
#[command(about = "Score `warpscope check` against H100 truth on validation/realworld")]
struct Args {
    /// The warpscope binary (default: target/release/warpscope, else target/debug/warpscope).
    #[arg(long)]
    warpscope: Option<PathBuf>,
    /// ptx-only, defaults, host (defaults + --host-source), geometry, both (defaults and
    /// geometry) or all.
    #[arg(long, default_value = "both")]
    mode: String,
    /// Seconds one `check` run may take before it is killed and counted as a timeout.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Also print the per-module table.
    #[arg(long)]
    modules: bool,
    /// Also print every missed (FN) and falsely reported (FP) line.
    #[arg(long)]
    lines: bool,
    /// With --lines, also print the lines found (TP), with `definite` where they are.
    #[arg(long)]
    found: bool,
    /// Also print, per measure, the true lines reported only `possible`, counted by why
    /// (a line with findings of several reasons counts once per reason), with the lines.
    #[arg(long)]
    possible_reasons: bool,
    /// Only these applications (names from apps.tsv).
    #[arg(long = "app")]
    apps: Vec<String>,
    /// Module stems not to run (counted as failed), besides those of --skip-file.
    #[arg(long)]
    skip: Vec<String>,
    /// A skip list (mode, module stem, reason per line), e.g. validation/realworld/skip.tsv.
    #[arg(long)]
    skip_file: Option<PathBuf>,
    /// Modules checked at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Fail (exit 1) when a score is below a floor of this file (floors.tsv format).
    #[arg(long)]
    floors: Option<PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let root = root.canonicalize().unwrap_or(root);
    let bin = args.warpscope.clone().unwrap_or_else(|| {
        let rel = root.join("target/release/warpscope");
        if rel.is_file() {
            rel
        } else {
            root.join("target/debug/warpscope")
        }
    });
    if !bin.is_file() {
        eprintln!(
            "error: no warpscope binary at {} (build it: cargo build --release -p warpscope)",
            bin.display()
        );
        return ExitCode::from(2);
    }
    let mut apps = match load_apps(&root) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if !args.apps.is_empty() {
        apps.retain(|a| args.apps.contains(&a.name));
    }
    let floors = match &args.floors {
        Some(p) => match std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| parse_floors(&t))
        {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => Vec::new(),
    };
    let Some(modes) = Mode::parse_list(&args.mode) else {
        eprintln!(
            "error: unknown mode `{}` (ptx-only, defaults, host, geometry, sass, both or all)",
            args.mode
        );
        return ExitCode::from(2);
    };
    let skip_text = match &args.skip_file {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}: {e}", p.display());
                return ExitCode::from(2);
            }
        },
        None => String::new(),
    };
    let limit = Duration::from_secs_f64(args.timeout);
    println!(
        "warpscope: {}; {} applications, {} modules; limit {:.0} s per run\n",
        bin.display(),
        apps.len(),
        apps.iter().map(|a| a.modules.len()).sum::<usize>(),
        args.timeout
    );
    let mut failed = Vec::new();
    for mode in modes {
        let key = mode.key();
        let mut skip: BTreeSet<String> = parse_skip(&skip_text, key);
        skip.extend(args.skip.iter().cloned());
        let s = score_all(&bin, &root, &apps, mode, limit, &skip, args.jobs);
        print!("{}", summary_markdown(mode, &s));
        println!();
        if args.modules {
            print!("{}", modules_markdown(&s));
            println!();
        }
        if args.lines {
            for (app, meas, l) in s
                .lines
                .iter()
                .filter(|(_, _, l)| args.found || l.verdict != "TP")
            {
                let d = if l.definite { " definite" } else { "" };
                println!(
                    "{} {app} {} {}:{}{d}",
                    l.verdict,
                    meas.key(),
                    l.file,
                    l.line
                );
            }
            println!();
        }
        if args.possible_reasons {
            print!("{}", possible_reasons_text(&s));
            println!();
        }
        failed.extend(check_floors(&s, key, &floors));
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        for f in &failed {
            eprintln!("below floor: {f}");
        }
        ExitCode::from(1)
    }
}
