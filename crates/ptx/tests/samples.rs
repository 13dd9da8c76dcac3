//! Every sample (tests/data and the repository corpus) parses without errors and round-trips.

mod common;

use common::*;

#[test]
fn samples_exist() {
    let files = sample_files();
    assert!(files.len() >= 5, "expected sample files, found {files:?}");
}

#[test]
fn all_samples_parse_without_errors() {
    for path in sample_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let m = parse_ok(&path.display().to_string(), &src);
        assert!(
            m.version.0 >= 7,
            "{}: version {:?}",
            path.display(),
            m.version
        );
        assert!(!m.target.is_empty());
        assert!(
            m.functions().count() > 0,
            "{}: no functions",
            path.display()
        );
    }
}

#[test]
fn all_samples_round_trip() {
    for path in sample_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        assert_round_trip(&path.display().to_string(), &src);
    }
}

#[test]
fn corpus_is_parsed_when_present() {
    // The corpus is written by other engineers; once it exists it must be covered.
    if let Some(c) = corpus_dir() {
        let n = sample_files().iter().filter(|p| p.starts_with(&c)).count();
        let on_disk = std::fs::read_dir(&c)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "ptx"))
            .count();
        assert!(n >= on_disk);
    }
}

/// The printed form of every sample is accepted by `ptxas` (when it is installed: set
/// `PTXAS=/path/to/ptxas` or have it on `PATH`; otherwise the test only logs and passes).
#[test]
fn printed_samples_assemble_with_ptxas() {
    let ptxas = std::env::var("PTXAS").unwrap_or_else(|_| "ptxas".to_string());
    if std::process::Command::new(&ptxas)
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("ptxas not found; skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("warpscope-ptx-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in sample_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let m = parse_ok(&path.display().to_string(), &src);
        let arch = m.target.first().copied().unwrap_or("sm_90");
        let out = dir.join(path.file_name().unwrap());
        std::fs::write(&out, m.to_string()).unwrap();
        let res = std::process::Command::new(&ptxas)
            .args(["-c", "-arch", arch, "-o", "/dev/null"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            res.status.success(),
            "ptxas rejected the printed form of {}:\n{}",
            path.display(),
            String::from_utf8_lossy(&res.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
