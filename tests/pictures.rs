//! The pictures of the guide are made, never drawn: real screens of the game, captured from
//! the binary in a pseudo-terminal and written as SVG, and plots of measured data from
//! `docs/data/`. Each test makes its pictures and checks them against `docs/pictures/`;
//! `TICTACTOE_PICTURES=write cargo test --test pictures` writes them there instead.

#[path = "proc/terminal.rs"]
mod terminal;

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use terminal::Terminal;

/// Where the pictures live.
fn pictures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures")
}

/// Writes `svg` as `docs/pictures/NAME.svg` when asked to, else returns what differs from the
/// picture there, if anything.
fn compare_or_write(name: &str, svg: &str) -> Option<String> {
    let path = pictures().join(format!("{name}.svg"));
    if std::env::var("TICTACTOE_PICTURES").is_ok_and(|v| v == "write") {
        fs::create_dir_all(pictures()).unwrap();
        fs::write(&path, svg).unwrap();
        return None;
    }
    match fs::read_to_string(&path) {
        Ok(kept) if kept == svg => None,
        Ok(_) => Some(format!(
            "{} is not what the game draws now; \
             run TICTACTOE_PICTURES=write cargo test --test pictures",
            path.display()
        )),
        Err(e) => Some(format!("{}: {e}", path.display())),
    }
}

// ---------------------------------------------------------------------------------------
// Screens

/// The 16 colours of the terminal the pictures show (a dark theme).
const PALETTE: [&str; 16] = [
    "#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
    "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea",
];
const FOREGROUND: &str = "#c5c8c6";
const BACKGROUND: &str = "#1d1f21";
const CELL_W: f32 = 8.4;
const CELL_H: f32 = 17.0;

/// A terminal colour as an SVG colour; `None` for the default.
fn colour(colour: vt100::Color) -> Option<String> {
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    match colour {
        vt100::Color::Default => None,
        vt100::Color::Idx(index) if index < 16 => Some(PALETTE[index as usize].to_string()),
        vt100::Color::Idx(index) if index >= 232 => {
            let grey = 8 + 10 * (index - 232);
            Some(hex((grey, grey, grey)))
        }
        vt100::Color::Idx(index) => {
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            let cube = index - 16;
            Some(hex((
                level(cube / 36),
                level(cube / 6 % 6),
                level(cube % 6),
            )))
        }
        vt100::Color::Rgb(red, green, blue) => Some(hex((red, green, blue))),
    }
}

/// Text safe inside an SVG element.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The style of one cell: foreground, background, bold, underline.
type Style = (String, Option<String>, bool, bool);

fn style(cell: &vt100::Cell) -> Style {
    let (mut fg, mut bg) = (colour(cell.fgcolor()), colour(cell.bgcolor()));
    if cell.inverse() {
        let (f, b) = (
            bg.clone().unwrap_or(BACKGROUND.into()),
            fg.unwrap_or(FOREGROUND.into()),
        );
        (fg, bg) = (Some(f), Some(b));
    }
    let fg = fg.unwrap_or(FOREGROUND.into());
    (fg, bg, cell.bold(), cell.underline())
}

/// The screen as an SVG picture: one text element per run of cells of one style, a
/// rectangle under each run with a background.
fn svg_of(screen: &vt100::Screen, title: &str) -> String {
    let (rows, cols) = screen.size();
    let (w, h) = (
        f32::from(cols) * CELL_W + 16.0,
        f32::from(rows) * CELL_H + 16.0,
    );
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"14\">\n\
         <title>{}</title>\n<rect width=\"100%\" height=\"100%\" rx=\"6\" fill=\"{BACKGROUND}\"/>\n",
        escaped(title)
    );
    for row in 0..rows {
        let mut col = 0;
        while col < cols {
            let first = screen.cell(row, col).unwrap();
            let run_style = style(first);
            let mut text = String::new();
            let start = col;
            while col < cols {
                let cell = screen.cell(row, col).unwrap();
                if style(cell) != run_style {
                    break;
                }
                if !cell.is_wide_continuation() {
                    let c = cell.contents();
                    text.push_str(if c.is_empty() { " " } else { c });
                }
                col += 1;
            }
            write_run(&mut svg, row, start, col - start, &text, &run_style);
        }
    }
    svg.push_str("</svg>\n");
    svg
}

fn write_run(svg: &mut String, row: u16, col: u16, len: u16, text: &str, style: &Style) {
    let (x, y) = (8.0 + f32::from(col) * CELL_W, 8.0 + f32::from(row) * CELL_H);
    let (fg, bg, bold, underline) = style;
    if let Some(bg) = bg {
        let width = f32::from(len) * CELL_W;
        writeln!(
            svg,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{width:.1}\" height=\"{CELL_H}\" fill=\"{bg}\"/>"
        )
        .unwrap();
    }
    if text.trim().is_empty() {
        return;
    }
    let weight = if *bold { " font-weight=\"bold\"" } else { "" };
    let line = if *underline {
        " text-decoration=\"underline\""
    } else {
        ""
    };
    writeln!(
        svg,
        "<text x=\"{x:.1}\" y=\"{:.1}\" fill=\"{fg}\"{weight}{line} xml:space=\"preserve\" \
         textLength=\"{:.1}\" lengthAdjust=\"spacingAndGlyphs\">{}</text>",
        y + 13.0,
        f32::from(len) * CELL_W,
        escaped(text)
    )
    .unwrap();
}

/// Waits until the screen has `text` and then stays the same for a quarter of a second.
fn settle(terminal: &Terminal, text: &str) {
    terminal.wait_for(text);
    let start = Instant::now();
    let mut last = terminal.read(vt100::Screen::contents_formatted);
    let mut still = Instant::now();
    while still.elapsed() < Duration::from_millis(250) {
        assert!(start.elapsed() < Duration::from_secs(20), "never settled");
        std::thread::sleep(Duration::from_millis(20));
        let now = terminal.read(vt100::Screen::contents_formatted);
        if now != last {
            last = now;
            still = Instant::now();
        }
    }
}

/// A fresh profile directory for one picture.
fn home(name: &str) -> String {
    let home = format!("{}/pictures-{name}", env!("CARGO_TARGET_TMPDIR"));
    let _ = fs::remove_dir_all(&home);
    home
}

/// One screen to show: the flags, then keys to type, each followed by the text to wait for.
struct Shot {
    name: &'static str,
    title: &'static str,
    args: &'static [&'static str],
    steps: &'static [(&'static str, &'static str)],
}

const SHOTS: &[Shot] = &[
    Shot {
        name: "start-screen",
        title: "The start screen",
        args: &[],
        steps: &[("", "Your games")],
    },
    Shot {
        name: "hint",
        title: "A 3×3 game between two players, O asking for a hint",
        args: &["-o", "human"],
        steps: &[("", "X to move"), ("5", "O to move"), ("h", "Hint for O")],
    },
    Shot {
        name: "ultimate",
        title: "Ultimate between two players, eight moves in",
        args: &["--ultimate", "-o", "human"],
        steps: &[("", "X to move"), ("553575951", "X to move on board 1")],
    },
    Shot {
        name: "review",
        title: "The review of a game, at X's blunder",
        args: &["-o", "human"],
        steps: &[
            ("", "X to move"),
            ("594613", "O (Player 2) wins."),
            ("r", "Move 1 of 6"),
            ("\x1b[C\x1b[C\x1b[C\x1b[C", "Move 5 of 6"),
        ],
    },
    Shot {
        name: "explorer",
        title: "The search explorer: minimax on a 3×3 position",
        args: &["-o", "human"],
        steps: &[
            ("", "X to move"),
            ("51", "X to move"),
            ("t", "Every search done"),
        ],
    },
    Shot {
        name: "explorer-ultimate",
        title: "The search explorer: Monte Carlo tree search in Ultimate",
        args: &["--ultimate", "-o", "human"],
        steps: &[
            ("", "X to move"),
            ("55", "O to move"),
            ("t", "Searched 1,000 iterations"),
        ],
    },
];

/// The screen `shot` shows, as SVG.
fn take(shot: &Shot) -> String {
    let home = home(shot.name);
    let mut terminal = Terminal::start_in(&[], shot.args, &home);
    for (keys, text) in shot.steps {
        terminal.send(keys);
        settle(&terminal, text);
    }
    terminal.read(|screen| svg_of(screen, shot.title))
}

#[test]
fn the_screens_in_the_guide_are_what_the_game_draws() {
    let mut stale = Vec::new();
    for shot in SHOTS {
        let svg = take(shot);
        // A screen caught between two frames is taken again once before it counts as changed.
        if compare_or_write(shot.name, &svg).is_some()
            && let Some(why) = compare_or_write(shot.name, &take(shot))
        {
            stale.push(why);
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Plots

/// The rows of a CSV file of `docs/data/` without its `#` comments: the header, then the data.
fn table(name: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/data")
        .join(name);
    let text = fs::read_to_string(&path).unwrap();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    (header, rows)
}

/// A line chart: one line per series of `(x, y)` points, named in a legend, with the axes'
/// ranges and ticks given.
struct Chart<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    x_ticks: Vec<(f64, String)>,
    y_range: (f64, f64),
    y_step: f64,
    series: Vec<(String, Vec<(f64, f64)>)>,
    /// Error bars: `(x, low, high)` for the first series.
    bars: Vec<(f64, f64, f64)>,
}

const SERIES_COLOURS: [&str; 4] = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"];

impl Chart<'_> {
    fn svg(&self) -> String {
        let (left, top, width, height) = (60.0, 40.0, 460.0, 260.0);
        let x_min = self.x_ticks.first().unwrap().0;
        let x_max = self.x_ticks.last().unwrap().0;
        let px = |x: f64| left + (x - x_min) / (x_max - x_min) * width;
        let py = |y: f64| {
            top + height - (y - self.y_range.0) / (self.y_range.1 - self.y_range.0) * height
        };
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"350\" \
             font-family=\"sans-serif\" font-size=\"12\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <text x=\"{left}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
            escaped(self.title)
        );
        let mut y = self.y_range.0;
        while y <= self.y_range.1 + 1e-9 {
            writeln!(
                svg,
                "<line x1=\"{left}\" x2=\"{right:.1}\" y1=\"{at:.1}\" y2=\"{at:.1}\" stroke=\"#ddd\"/>\
                 <text x=\"{label:.1}\" y=\"{base:.1}\" text-anchor=\"end\">{y}</text>",
                right = left + width,
                at = py(y),
                label = left - 6.0,
                base = py(y) + 4.0
            )
            .unwrap();
            y += self.y_step;
        }
        for (x, label) in &self.x_ticks {
            writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                px(*x),
                top + height + 18.0,
                escaped(label)
            )
            .unwrap();
        }
        writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
             <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            left + width / 2.0,
            top + height + 38.0,
            escaped(self.x_label),
            top + height / 2.0,
            escaped(self.y_label)
        )
        .unwrap();
        for &(x, low, high) in &self.bars {
            writeln!(
                svg,
                "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1:.1}\" y2=\"{2:.1}\" stroke=\"{3}\" stroke-width=\"2\"/>",
                px(x),
                py(low),
                py(high),
                SERIES_COLOURS[0]
            )
            .unwrap();
        }
        for (i, (name, points)) in self.series.iter().enumerate() {
            let colour = SERIES_COLOURS[i % SERIES_COLOURS.len()];
            let path: Vec<String> = points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
                .collect();
            writeln!(
                svg,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                path.join(" ")
            )
            .unwrap();
            for &(x, y) in points {
                writeln!(
                    svg,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>",
                    px(x),
                    py(y)
                )
                .unwrap();
            }
            let ly = top + 14.0 + 18.0 * f64::from(u8::try_from(i).unwrap());
            writeln!(
                svg,
                "<line x1=\"540\" x2=\"560\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\
                 <text x=\"566\" y=\"{1:.1}\">{2}</text>",
                ly,
                ly + 4.0,
                escaped(name)
            )
            .unwrap();
        }
        svg.push_str("</svg>\n");
        svg
    }
}

fn ladder_chart() -> String {
    let (header, rows) = table("ladder.csv");
    let series = header[1..]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let points = rows.iter().map(|r| (r[0], r[i + 1])).collect();
            (name.clone(), points)
        })
        .collect();
    Chart {
        title: "The ladder: each level's rating on each board",
        x_label: "level",
        y_label: "rating (Elo scale, random play = 0)",
        x_ticks: rows.iter().map(|r| (r[0], format!("{}", r[0]))).collect(),
        y_range: (0.0, 1000.0),
        y_step: 200.0,
        series,
        bars: Vec::new(),
    }
    .svg()
}

fn rounds_chart() -> String {
    let (_, rows) = table("ultimate-rounds.csv");
    let points = rows.iter().map(|r| (r[0], r[1])).collect();
    Chart {
        title: "Ultimate: hard against frozen after each round of training",
        x_label: "round of self-play and training (0: before the network)",
        y_label: "score against frozen, % (95% interval)",
        x_ticks: rows.iter().map(|r| (r[0], format!("{}", r[0]))).collect(),
        y_range: (40.0, 100.0),
        y_step: 10.0,
        series: vec![("hard, 100 ms a move".into(), points)],
        bars: rows.iter().map(|r| (r[0], r[2], r[3])).collect(),
    }
    .svg()
}

#[test]
fn the_plots_in_the_guide_are_drawn_from_the_measured_data() {
    let stale: Vec<String> = [
        ("ladder", ladder_chart()),
        ("ultimate-rounds", rounds_chart()),
    ]
    .iter()
    .filter_map(|(name, svg)| compare_or_write(name, svg))
    .collect();
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}
