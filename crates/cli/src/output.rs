//! Where a command's report goes: the file of `-o/--output FILE`, or standard output. Every
//! command that prints a report (check, profile, report) writes every format through here.

use std::path::PathBuf;

/// Writes `s` to `path`, or to standard output without one. An error names the file.
pub fn write(path: &Option<PathBuf>, s: &str) -> Result<(), String> {
    match path {
        Some(p) => std::fs::write(p, s).map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = out.write_all(s.as_bytes());
            let _ = out.flush();
            Ok(())
        }
    }
}
