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
