//! Bad Nsight Compute input never panics: `--compare-ncu` reads whatever file it is given.

use proptest::prelude::*;
use std::sync::OnceLock;
use warpscope_profile::{Profile, ProfileOptions, load_spec, ncu, profile_spec};

/// The profile of corpus/histogram (the program the fixture page measured).
fn profile() -> &'static Profile {
    static P: OnceLock<Profile> = OnceLock::new();
    P.get_or_init(|| {
        let spec = load_spec(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../corpus/histogram.toml"
        )))
        .expect("spec");
        let mut opts = ProfileOptions::default();
        opts.run.save_dir = Some(std::env::temp_dir().join("ws-ncu-input"));
        profile_spec(&spec, &opts).expect("profile runs").profile
    })
}

fn page() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/h100/histogram.source.csv"
    );
    std::fs::read_to_string(path).expect("fixture")
}

fn check(text: &str) {
    let n = ncu::parse_source_csv(text);
    let c = ncu::compare(profile(), &n);
    for l in &c.lines {
        let _ = l.reason();
    }
    let _ = ncu::render_markdown("x", &c);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_text(s in "\\PC{0,400}") {
        check(&s);
    }

    #[test]
    fn csv_shaped_text(rows in prop::collection::vec(
        prop::collection::vec("[0-9a-zA-Z.,\" -]{0,12}", 0..30), 0..20)) {
        let text: String = rows
            .iter()
            .map(|r| r.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(","))
            .collect::<Vec<_>>()
            .join("\n");
        check(&format!("\"Line No\",\"Source\",\"Address\",\"Source\",\"Instructions Executed\",\"Address Space\",\"Access Size\",\"L2 Theoretical Sectors Global\"\n{text}"));
    }

    #[test]
    fn damaged_real_page(cut in 0usize..97_000, len in 0usize..2000, junk in "\\PC{0,40}") {
        let p = page();
        let cut = p.floor_char_boundary(cut.min(p.len()));
        let end = p.floor_char_boundary((cut + len).min(p.len()));
        check(&format!("{}{junk}{}", &p[..cut], &p[end..]));
        check(&p[..cut]);
    }
}
