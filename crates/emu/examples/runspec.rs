//! Runs a launch spec: `cargo run --release -p warpscope-emu --features tools --example runspec -- SPEC [det]`.
use warpscope_emu::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = match LaunchSpec::load(std::path::Path::new(&args[1])) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut opts = RunOptions::default();
    if args.get(2).is_some_and(|a| a == "det") {
        opts.exec.schedule = warpscope_emu::Schedule::Emulated;
    }
    opts.save_dir = Some(std::env::temp_dir().join("ws-runspec"));
    match run_spec(&spec, &opts, &mut NoObserver) {
        Ok(r) => {
            for l in &r.launches {
                println!(
                    "{:40} {:>12} thread-instr {:>10.3} ms  {:.1} M/s",
                    l.kernel,
                    l.stats.thread_instructions,
                    l.wall.as_secs_f64() * 1e3,
                    l.stats.thread_instructions as f64 / l.wall.as_secs_f64() / 1e6
                );
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
