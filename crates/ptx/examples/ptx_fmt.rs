//! Parses a PTX file and prints it back (normalized) on stdout; errors go to stderr.
//!
//! `cargo run -p warpscope-ptx --features tools --example ptx_fmt -- FILE > OUT.ptx`

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: ptx_fmt FILE");
        std::process::exit(2);
    };
    let src = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let (module, errors) = warpscope_ptx::parse(&src);
    if !errors.is_empty() {
        eprint!("{}", warpscope_ptx::render_errors(&path, &src, &errors));
    }
    print!("{module}");
    if !errors.is_empty() {
        std::process::exit(1);
    }
}
