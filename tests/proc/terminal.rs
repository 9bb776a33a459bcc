//! A `tictactoe` in a pseudo-terminal, as a person runs it: keys typed, the screen read.
#![allow(dead_code)] // not every test file uses every helper

use std::io::Write;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

/// `tictactoe` in a pseudo-terminal, its screen parsed as it goes.
pub struct Terminal {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn std::io::Write + Send>,
    screen: std::sync::Arc<std::sync::Mutex<vt100::Parser>>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Terminal {
    /// Starts `tictactoe` with `args`, run through `wrapper` (a program and its arguments)
    /// unless it is empty.
    pub fn start(wrapper: &[&str], args: &[&str]) -> Terminal {
        Terminal::start_in(wrapper, args, concat!(env!("CARGO_TARGET_TMPDIR"), "/home"))
    }

    /// As [`Terminal::start`], with the profile directory `home`.
    pub fn start_in(wrapper: &[&str], args: &[&str], home: &str) -> Terminal {
        let pair = portable_pty::native_pty_system()
            .openpty(portable_pty::PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pty");
        let binary = env!("CARGO_BIN_EXE_tictactoe");
        let mut cmd = portable_pty::CommandBuilder::new(wrapper.first().unwrap_or(&binary));
        if !wrapper.is_empty() {
            cmd.args(&wrapper[1..]);
            cmd.arg(binary);
        }
        cmd.args(args);
        cmd.cwd(env!("CARGO_MANIFEST_DIR"));
        cmd.env("TERM", "xterm-256color");
        cmd.env("LANG", "C.UTF-8");
        cmd.env("RUST_BACKTRACE", "0");
        cmd.env("TICTACTOE_HOME", home);
        cmd.env_remove("NO_COLOR");
        let child = pair.slave.spawn_command(cmd).expect("the game starts");
        drop(pair.slave);
        let writer = pair.master.take_writer().unwrap();
        let mut reader = pair.master.try_clone_reader().unwrap();
        let screen = std::sync::Arc::new(std::sync::Mutex::new(vt100::Parser::new(24, 80, 0)));
        let parser = std::sync::Arc::clone(&screen);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = std::io::Read::read(&mut reader, &mut buf) {
                if n == 0 {
                    break;
                }
                parser.lock().unwrap().process(&buf[..n]);
            }
        });
        Terminal {
            child,
            writer,
            screen,
            _master: pair.master,
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// What `read` finds on the parsed screen.
    pub fn read<R>(&self, read: impl FnOnce(&vt100::Screen) -> R) -> R {
        read(self.screen.lock().unwrap().screen())
    }

    pub fn wait_for(&self, text: &str) {
        let start = Instant::now();
        while !self.contents().contains(text) {
            assert!(
                start.elapsed() < TIMEOUT,
                "timed out waiting for {text:?}; screen:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "did not exit; screen:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
