//! Writes every buffer's initial contents of a launch spec to OUTDIR/init/<name>.bin, the way
//! `scripts/h100/run_spec_cupy.py SPEC OUTDIR --init-only` does (to check they agree):
//! `cargo run -p warpscope-emu --features tools --example dump_init -- SPEC OUTDIR`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: dump_init SPEC OUTDIR");
        std::process::exit(2);
    }
    let spec = warpscope_emu::LaunchSpec::load(std::path::Path::new(&args[1]))
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = std::path::Path::new(&args[2]).join("init");
    std::fs::create_dir_all(&dir).expect("create OUTDIR/init");
    for b in &spec.buffers {
        let bytes = warpscope_emu::spec::buffer_bytes(b).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join(format!("{}.bin", b.name)), bytes).expect("write");
    }
}
