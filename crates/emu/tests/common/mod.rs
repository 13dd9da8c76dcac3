//! Helpers shared by the emulator's integration tests.
#![allow(dead_code)]

use warpscope_emu::{EmuError, Emulator, ExecConfig, KernelArg, LaunchOutcome, Observer, Schedule};

/// Wraps a kernel body in a PTX module header.
pub fn module(body: &str) -> String {
    format!(".version 8.0\n.target sm_90\n.address_size 64\n\n{body}\n")
}

pub fn det() -> ExecConfig {
    ExecConfig {
        schedule: Schedule::Emulated,
        ..ExecConfig::default()
    }
}

pub fn par() -> ExecConfig {
    ExecConfig {
        schedule: Schedule::Parallel,
        threads: Some(2),
        ..ExecConfig::default()
    }
}

/// An emulator with one zeroed output buffer of `bytes` bytes.
pub struct Run {
    pub emu: Emulator,
    pub out: u64,
    pub bytes: u64,
}

impl Run {
    pub fn new(ptx: &str, bytes: u64, cfg: ExecConfig) -> Run {
        let mut emu = Emulator::from_ptx(ptx, cfg).unwrap_or_else(|e| panic!("{e}"));
        let out = emu.alloc("out", bytes).expect("alloc");
        Run { emu, out, bytes }
    }

    /// Allocates and fills another buffer; returns its address.
    pub fn buffer(&mut self, name: &str, data: &[u8]) -> u64 {
        let a = self.emu.alloc(name, data.len() as u64).expect("alloc");
        self.emu.write(a, data).expect("write");
        a
    }

    pub fn launch(
        &mut self,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        args: &[KernelArg],
    ) -> Result<LaunchOutcome, EmuError> {
        let k = self.emu.find_kernel(kernel).map_err(EmuError::Launch)?;
        self.emu.launch(k, grid, block, 0, args)
    }

    pub fn launch_obs<O: Observer>(
        &mut self,
        kernel: &str,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        args: &[KernelArg],
        obs: &mut O,
    ) -> Result<LaunchOutcome, EmuError> {
        let k = self.emu.find_kernel(kernel).map_err(EmuError::Launch)?;
        self.emu.launch_with(k, grid, block, shared, args, obs)
    }

    pub fn u32s(&self) -> Vec<u32> {
        let b = self.emu.read(self.out, self.bytes).expect("read");
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    pub fn u64s(&self) -> Vec<u64> {
        let b = self.emu.read(self.out, self.bytes).expect("read");
        b.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    pub fn f32s(&self) -> Vec<f32> {
        self.u32s().into_iter().map(f32::from_bits).collect()
    }
}

pub fn out_arg(r: &Run) -> KernelArg {
    KernelArg::U64(r.out)
}

/// Runs `kernel` in both modes and asserts identical outputs; returns the output words.
pub fn both_modes(
    ptx: &str,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    bytes: u64,
) -> Vec<u32> {
    let mut outs = Vec::new();
    for cfg in [det(), par()] {
        let mut r = Run::new(ptx, bytes, cfg);
        let a = out_arg(&r);
        r.launch(kernel, grid, block, &[a])
            .unwrap_or_else(|e| panic!("{e}"));
        outs.push(r.u32s());
    }
    assert_eq!(outs[0], outs[1], "deterministic and parallel runs differ");
    outs.pop().unwrap()
}
