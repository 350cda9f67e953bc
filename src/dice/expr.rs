//! Dice expressions: `4d6k3`, `2d6<=7`, `count(10d6>=5)`, `d6!3`, `d{1,1,2}+df`, ...
//!
//! One parser, two evaluators: [`Expr::exact`] builds the exact
//! distribution with [`Dist`] (dynamic programming over outcomes for pools,
//! never enumerating `faces^n` rolls) and [`Expr::sample`] rolls it on any
//! [`Roller`].
//!
//! Grammar (lowest precedence first):
//!
//! ```text
//! expr    := sum [cmp sum]          cmp: <= >= < > == = !=
//! sum     := product (('+'|'-') product)*
//! product := unary ('*' unary)*
//! unary   := '-' unary | atom
//! atom    := number | pool | count | '(' expr ')'
//! count   := 'count(' pool cmp ['-'] number ')'   dice of the pool that pass
//! pool    := [n] die modifier*
//! die     := 'd' sides | 'd{' face (',' face)* '}' | name | 'df'
//! modifier:= 'k' n | 'kh' n | 'kl' n      keep highest / lowest n dice
//!          | '!' [depth]                  explode the top face (default depth 20)
//!          | 'r' n | 'r<' n | 'r<=' n     reroll once a die showing n / below n / n or less
//! ```
//!
//! A comparison makes a probability: the result is 1 when it holds and 0
//! otherwise, so `prob` shows P(true) as the mean. A comparison always
//! compares totals: `2d6<=6` is P(2D6 total <= 6) = 15/36, a Leadership 6
//! test as `2d6<=7` is Leadership 7. Counting the dice that pass has its
//! own form, `count(10d6>=5)` (a number from 0 to 10, usable in sums and
//! comparisons: `count(10d6>=5)>=3`). Earlier versions read a bare pool
//! compared with one of its faces as a count; where that old form reads
//! as a total whose answer is certain (`10d6>=5`: the total is at least
//! 10), the parser refuses it and names the `count(...)` to write. `df` is
//! a Fudge die (-1,0,+1). A `name` is a [`NamedDie`] the caller supplies
//! to [`Expr::parse_with`] (a game's special die): the kernel knows none
//! itself.

use super::{Dist, Roller};
use std::fmt;

/// Most dice in one pool.
pub const MAX_DICE: u64 = 1000;
/// Most sides on one die.
pub const MAX_SIDES: u64 = 10_000;
/// Deepest explosion allowed.
pub const MAX_DEPTH: u64 = 100;
/// Default explosion depth: a d6 exploding 20 times in a row has
/// probability 6^-20, far below f64's resolution of the other outcomes.
pub const DEFAULT_DEPTH: u32 = 20;
/// Most distinct outcomes an exact result may have.
pub const MAX_OUTCOMES: usize = 2_000_000;
/// Most elementary steps (multiply-adds) one exact operation may take:
/// about a second; beyond it `prob` refuses and suggests `roll`.
pub const MAX_WORK: f64 = 2e9;
/// Multiply-adds one entry of an explosion step costs: each step rebuilds
/// the exploded table through an ordered merge (`Dist::from_pairs`),
/// measured at about 50 ns an entry where a keep-highest step is about
/// 1 ns (`d10000!100` took 4.8 s to build and then be refused).
const EXPLODE_ENTRY_COST: f64 = 50.0;
/// Longest expression, in characters (a die with the most custom faces
/// fits: 10,000 faces of up to seven characters).
pub const MAX_LENGTH: usize = 100_000;
/// Deepest nesting of parentheses and signs: the parser and evaluators
/// recurse once per level, and this keeps them far from the stack's end.
pub const MAX_NESTING: usize = 100;
/// Most numbers, dice and operators in one expression: the evaluators
/// recurse once per operator of a chain such as `d6+d6+...`.
pub const MAX_TERMS: usize = 1000;
/// Most dice `roll` may throw in one call (expected count, rerolls and
/// explosions included): about five seconds of sampling (measured: 1e8
/// dice of `1000d6` in 0.5 s).
pub const MAX_ROLL_DICE: f64 = 1e9;

/// A die the expression language knows by name, such as a game's special
/// die. The kernel knows none: callers pass a table of them to
/// [`Expr::parse_with`]. A name is lowercase ASCII letters, matched without
/// regard to case; it should not begin with `d` (the generic dice) or `x`
/// (multiplication: `3x2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedDie {
    /// Its name in expressions.
    pub name: &'static str,
    /// Its faces, repeats allowed.
    pub faces: &'static [i64],
    /// What it is, in a few words (for help texts).
    pub about: &'static str,
}

/// A malformed or too large expression, with the character it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// The expression.
    pub source: String,
    /// Character offset of the problem.
    pub position: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let caret = " ".repeat(
            self.source[..self.position.min(self.source.len())]
                .chars()
                .count(),
        );
        write!(
            f,
            "{} at character {}\n  {}\n  {caret}^",
            self.message,
            self.position + 1,
            self.source
        )
    }
}

impl std::error::Error for ExprError {}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==` or `=`
    Eq,
    /// `!=`
    Ne,
}

impl Cmp {
    fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
        }
    }
}

/// Which dice a reroll applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reroll {
    /// Faces equal to n.
    Equal(i64),
    /// Faces below n.
    Below(i64),
    /// Faces n or below.
    AtMost(i64),
}

impl Reroll {
    fn applies(self, face: i64) -> bool {
        match self {
            Reroll::Equal(n) => face == n,
            Reroll::Below(n) => face < n,
            Reroll::AtMost(n) => face <= n,
        }
    }
}

/// A pool of identical dice with its modifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct Pool {
    /// How many dice.
    pub count: u32,
    /// The faces of one die (repeats allowed).
    pub faces: Vec<i64>,
    /// Keep the highest (`true`) or lowest `n` dice.
    pub keep: Option<(bool, u32)>,
    /// Explode the top face, at most this many extra dice per die.
    pub explode: Option<u32>,
    /// Reroll once.
    pub reroll: Option<Reroll>,
}

impl Pool {
    /// The smallest and largest value one die (rerolled, exploded) can show.
    fn die_bounds(&self) -> (i128, i128) {
        let lo = i128::from(self.faces.iter().copied().min().unwrap_or(0));
        let top = i128::from(self.faces.iter().copied().max().unwrap_or(0));
        let depth = i128::from(self.explode.unwrap_or(0));
        (lo + top.min(0) * depth, top + top.max(0) * depth)
    }

    /// The exact distribution of one die with its reroll and explosion.
    fn one_die(&self) -> Dist {
        let mut die = Dist::faces(&self.faces);
        if let Some(r) = self.reroll {
            die = die.reroll(|v| r.applies(v));
        }
        if let Some(depth) = self.explode {
            die = die.explode(depth);
        }
        die
    }

    /// [`one_die`](Self::one_die), refused before any work when the die
    /// alone would pass the limits (a wide die exploding many times).
    fn exact_die(&self) -> Result<Dist, TooBig> {
        let (lo, hi) = self.die_bounds();
        let width = u64::try_from(hi - lo).unwrap_or(u64::MAX);
        guard(width)?;
        // each explosion step rebuilds a table as wide as the result so far
        let steps = f64::from(self.explode.unwrap_or(0)) + 1.0;
        let cost = if self.explode.is_some() {
            EXPLODE_ENTRY_COST
        } else {
            1.0
        };
        guard_work(cost * steps * (width as f64 + self.faces.len() as f64))?;
        Ok(self.one_die())
    }

    fn sample_die(&self, dice: &mut impl Roller) -> i64 {
        let n = self.faces.len() as u32;
        // one die with its reroll; every die an explosion adds is such a
        // die too, as in `exact` (the exploded distribution is the rerolled one)
        let mut die = || {
            let mut v = self.faces[(dice.roll(n) - 1) as usize];
            if self.reroll.is_some_and(|r| r.applies(v)) {
                v = self.faces[(dice.roll(n) - 1) as usize];
            }
            v
        };
        let mut value = die();
        if let Some(depth) = self.explode {
            let top = self.faces.iter().copied().max().unwrap_or(0);
            let mut last = value;
            let mut extra = 0;
            while last == top && extra < depth {
                last = die();
                // cannot overflow: the parser bounds every value inside i64
                value += last;
                extra += 1;
            }
        }
        value
    }

    fn sample_values(&self, dice: &mut impl Roller) -> Vec<i64> {
        (0..self.count).map(|_| self.sample_die(dice)).collect()
    }
}

/// A parsed dice expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant.
    Number(i64),
    /// A pool, summed (after keeping).
    Pool(Pool),
    /// Dice of a pool that satisfy a comparison, counted.
    Count(Pool, Cmp, i64),
    /// `a + b`.
    Add(Box<Expr>, Box<Expr>),
    /// `a - b`.
    Sub(Box<Expr>, Box<Expr>),
    /// `a * b`.
    Mul(Box<Expr>, Box<Expr>),
    /// `-a`.
    Neg(Box<Expr>),
    /// 1 if the comparison holds, else 0.
    Compare(Box<Expr>, Cmp, Box<Expr>),
}

impl Expr {
    /// Parses `source`, knowing no named dice.
    pub fn parse(source: &str) -> Result<Expr, ExprError> {
        Expr::parse_with(source, &[])
    }

    /// Parses `source`, where each of `named` is a die too: a named die
    /// takes a count and modifiers like any other (`3name`, `3namek1`).
    pub fn parse_with(source: &str, named: &[NamedDie]) -> Result<Expr, ExprError> {
        let mut p = Parser {
            src: source,
            named,
            chars: source.char_indices().collect(),
            i: 0,
            nesting: 0,
            terms: 0,
        };
        if p.chars.len() > MAX_LENGTH {
            return Err(p.error_at(
                MAX_LENGTH,
                &format!(
                    "the expression has {} characters, more than the {MAX_LENGTH} allowed",
                    p.chars.len()
                ),
            ));
        }
        p.skip_space();
        if p.i == p.chars.len() {
            return Err(p.error("empty expression"));
        }
        let e = p.comparison()?;
        p.skip_space();
        if p.i < p.chars.len() {
            return Err(p.error(&format!("unexpected '{}'", p.chars[p.i].1)));
        }
        Ok(e)
    }

    /// The smallest and largest value the expression can take, in 128-bit
    /// integers (every parsed expression's bounds lie inside `i64`: the
    /// parser refuses any that could overflow).
    pub fn bounds(&self) -> (i128, i128) {
        match self {
            Expr::Number(n) => (i128::from(*n), i128::from(*n)),
            Expr::Pool(pool) => {
                let (lo, hi) = pool.die_bounds();
                let n = i128::from(pool.keep.map_or(pool.count, |(_, k)| k));
                (lo * n, hi * n)
            }
            Expr::Count(pool, ..) => (0, i128::from(pool.count)),
            Expr::Add(a, b) => {
                let ((a0, a1), (b0, b1)) = (a.bounds(), b.bounds());
                (a0 + b0, a1 + b1)
            }
            Expr::Sub(a, b) => {
                let ((a0, a1), (b0, b1)) = (a.bounds(), b.bounds());
                (a0 - b1, a1 - b0)
            }
            Expr::Mul(a, b) => {
                let ((a0, a1), (b0, b1)) = (a.bounds(), b.bounds());
                let c = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                (
                    c.iter().copied().min().unwrap_or(0),
                    c.iter().copied().max().unwrap_or(0),
                )
            }
            Expr::Neg(a) => {
                let (lo, hi) = a.bounds();
                (-hi, -lo)
            }
            Expr::Compare(..) => (0, 1),
        }
    }

    /// Expected number of dice one [`sample`](Self::sample) throws (at
    /// least 1), counting rerolls and explosions: `roll` refuses a call
    /// whose total passes [`MAX_ROLL_DICE`].
    pub fn dice_per_sample(&self) -> f64 {
        fn dice(e: &Expr) -> f64 {
            match e {
                Expr::Number(_) => 0.0,
                Expr::Pool(p) | Expr::Count(p, ..) => {
                    let n = p.faces.len() as f64;
                    let top = p.faces.iter().copied().max().unwrap_or(0);
                    let p_top = p.faces.iter().filter(|&&f| f == top).count() as f64 / n;
                    let rerolls = if p.reroll.is_some() { 2.0 } else { 1.0 };
                    // expected extra dice of an explosion: p + p^2 + ... + p^depth
                    let extra = p
                        .explode
                        .map_or(0.0, |d| (1..=d).map(|j| p_top.powi(j as i32)).sum::<f64>());
                    f64::from(p.count) * (rerolls + extra)
                }
                Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::Compare(a, _, b) => {
                    dice(a) + dice(b)
                }
                Expr::Neg(a) => dice(a),
            }
        }
        dice(self).max(1.0)
    }

    /// How many equally likely rolls lie behind the expression (every face
    /// of every die thrown, rerolls and explosions at their full depth
    /// counted as dice), so that each probability of [`exact`](Self::exact)
    /// is a whole number of them: `2d6<=7` has 36, and P = 21/36. `None`
    /// past `u128`. `krunch prob` uses it to show a probability as a fraction.
    pub fn equally_likely_rolls(&self) -> Option<u128> {
        match self {
            Expr::Number(_) => Some(1),
            Expr::Pool(p) | Expr::Count(p, ..) => {
                let sides = u128::try_from(p.faces.len()).ok()?;
                // a rerolled die is two throws; an exploding one, depth + 1
                let throws =
                    if p.reroll.is_some() { 2 } else { 1 } * p.explode.map_or(1, |d| d + 1);
                sides.checked_pow(throws.checked_mul(p.count)?)
            }
            Expr::Add(a, b) | Expr::Sub(a, b) | Expr::Mul(a, b) | Expr::Compare(a, _, b) => a
                .equally_likely_rolls()?
                .checked_mul(b.equally_likely_rolls()?),
            Expr::Neg(a) => a.equally_likely_rolls(),
        }
    }

    /// Whether the expression is a comparison (its values are 0 and 1).
    pub fn is_probability(&self) -> bool {
        matches!(self, Expr::Compare(..))
    }

    /// The exact distribution. Fails (naming the limit) when it would have
    /// more than [`MAX_OUTCOMES`] outcomes.
    pub fn exact(&self) -> Result<Dist, TooBig> {
        let d = match self {
            Expr::Number(n) => Dist::constant(*n),
            Expr::Pool(pool) => {
                let die = pool.exact_die()?;
                let width = (die.max_value() - die.min_value()) as u64 * u64::from(pool.count);
                guard(width)?;
                let n = f64::from(pool.count);
                let values = die.iter().count() as f64;
                let work = match pool.keep {
                    None => (width as f64).powi(2) / 2.0,
                    Some((_, k)) => values * n * n / 2.0 * (f64::from(k) * span(&die) as f64 + 1.0),
                };
                guard_work(work)?;
                match pool.keep {
                    None => die.sum_of(pool.count),
                    Some((true, k)) => die.keep_highest(pool.count, k),
                    Some((false, k)) => die.keep_lowest(pool.count, k),
                }
            }
            Expr::Count(pool, cmp, k) => {
                let p = pool.exact_die()?.prob(|v| cmp.holds(v, *k));
                Dist::from_pairs((0..=pool.count).map(|n| {
                    (
                        i64::from(n),
                        super::binomial_pmf(u64::from(pool.count), u64::from(n), p),
                    )
                }))
            }
            Expr::Add(a, b) => {
                let (a, b) = (a.exact()?, b.exact()?);
                guard(span(&a) + span(&b))?;
                guard_work(span(&a) as f64 * span(&b) as f64)?;
                a.add(&b)
            }
            Expr::Sub(a, b) => {
                let (a, b) = (a.exact()?, b.exact()?.map(|v| -v));
                guard(span(&a) + span(&b))?;
                guard_work(span(&a) as f64 * span(&b) as f64)?;
                a.add(&b)
            }
            Expr::Mul(a, b) => {
                let (lo, hi) = self.bounds();
                guard(u64::try_from(hi - lo).unwrap_or(u64::MAX))?;
                let (a, b) = (a.exact()?, b.exact()?);
                guard_work((span(&a) + 1) as f64 * (span(&b) + 1) as f64)?;
                a.combine(&b, |x, y| x * y)
            }
            Expr::Neg(a) => a.exact()?.map(|v| -v),
            Expr::Compare(a, cmp, b) => {
                let (a, b) = (a.exact()?, b.exact()?);
                // P(b < x) and P(b = x) from b's running total: linear time
                let lo = b.min_value();
                let mut below = Vec::with_capacity(span(&b) as usize + 2);
                let mut acc = 0.0;
                for v in lo..=b.max_value() {
                    below.push(acc);
                    acc += b.pmf(v);
                }
                let p_below = |x: i64| -> f64 {
                    if x <= lo {
                        0.0
                    } else if x > b.max_value() {
                        1.0
                    } else {
                        below[(x - lo) as usize]
                    }
                };
                let mut p_true = 0.0;
                for (x, px) in a.iter() {
                    let (lt, eq) = (p_below(x), b.pmf(x));
                    let gt = (1.0 - lt - eq).max(0.0);
                    // cmp holds for (x, y): x < y means y > x, and so on
                    let p = match cmp {
                        Cmp::Lt => gt,
                        Cmp::Le => gt + eq,
                        Cmp::Gt => lt,
                        Cmp::Ge => lt + eq,
                        Cmp::Eq => eq,
                        Cmp::Ne => 1.0 - eq,
                    };
                    p_true += px * p;
                }
                let p_true = p_true.clamp(0.0, 1.0);
                Dist::from_pairs([(0, 1.0 - p_true), (1, p_true)])
            }
        };
        Ok(d)
    }

    /// One random value of the expression.
    pub fn sample(&self, dice: &mut impl Roller) -> i64 {
        match self {
            Expr::Number(n) => *n,
            // a plain sum needs no list of the dice: the same dice, summed in order
            Expr::Pool(pool) if pool.keep.is_none() => {
                (0..pool.count).fold(0, |a: i64, _| a.saturating_add(pool.sample_die(dice)))
            }
            Expr::Pool(pool) => {
                let mut values = pool.sample_values(dice);
                match pool.keep {
                    None => values.iter().fold(0, |a, &b| a.saturating_add(b)),
                    Some((highest, k)) => {
                        values.sort_unstable();
                        if highest {
                            values.reverse();
                        }
                        values
                            .iter()
                            .take(k as usize)
                            .fold(0, |a, &b| a.saturating_add(b))
                    }
                }
            }
            Expr::Count(pool, cmp, k) => pool
                .sample_values(dice)
                .iter()
                .filter(|&&v| cmp.holds(v, *k))
                .count() as i64,
            // saturating: `roll` samples expressions too large to evaluate exactly
            Expr::Add(a, b) => a.sample(dice).saturating_add(b.sample(dice)),
            Expr::Sub(a, b) => a.sample(dice).saturating_sub(b.sample(dice)),
            Expr::Mul(a, b) => a.sample(dice).saturating_mul(b.sample(dice)),
            Expr::Neg(a) => a.sample(dice).saturating_neg(),
            Expr::Compare(a, cmp, b) => i64::from(cmp.holds(a.sample(dice), b.sample(dice))),
        }
    }

    /// How the expression was read, in words (shown by `krunch prob`).
    pub fn describe(&self) -> String {
        match self {
            Expr::Number(n) => n.to_string(),
            Expr::Pool(p) => describe_pool(p),
            Expr::Count(p, c, k) => format!(
                "count of dice in {} showing {} {k}",
                describe_pool(p),
                c.symbol()
            ),
            Expr::Add(a, b) => format!("{} + {}", a.describe(), b.describe()),
            Expr::Sub(a, b) => format!("{} - ({})", a.describe(), b.describe()),
            Expr::Mul(a, b) => format!("({}) * ({})", a.describe(), b.describe()),
            Expr::Neg(a) => format!("-({})", a.describe()),
            Expr::Compare(a, c, b) => {
                // a pool of several dice is compared by its total
                let side = |e: &Expr| match e {
                    Expr::Pool(p) if p.count >= 2 => format!("total of {}", describe_pool(p)),
                    _ => e.describe(),
                };
                format!("P({} {} {})", side(a), c.symbol(), side(b))
            }
        }
    }
}

fn describe_pool(p: &Pool) -> String {
    let faces = if p.faces.iter().copied().eq(1..=p.faces.len() as i64) {
        format!("d{}", p.faces.len())
    } else {
        format!(
            "d{{{}}}",
            p.faces
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    let mut s = format!("{}{faces}", p.count);
    if let Some(r) = p.reroll {
        s += &match r {
            Reroll::Equal(n) => format!(" rerolling {n}s once"),
            Reroll::Below(n) => format!(" rerolling below {n} once"),
            Reroll::AtMost(n) => format!(" rerolling {n} or less once"),
        };
    }
    if let Some(d) = p.explode {
        s += &format!(" exploding (depth {d})");
    }
    match p.keep {
        Some((true, k)) => s += &format!(" keep highest {k}"),
        Some((false, k)) => s += &format!(" keep lowest {k}"),
        None => {}
    }
    s
}

/// Whether `total cmp k` holds for every total in `lo..=hi` (`Some(true)`),
/// for none (`Some(false)`), or depends on the roll (`None`).
fn certain(cmp: Cmp, lo: i128, hi: i128, k: i128) -> Option<bool> {
    let holds = |t: i128| match cmp {
        Cmp::Lt => t < k,
        Cmp::Le => t <= k,
        Cmp::Gt => t > k,
        Cmp::Ge => t >= k,
        Cmp::Eq => t == k,
        Cmp::Ne => t != k,
    };
    match cmp {
        Cmp::Eq | Cmp::Ne => {
            let equal = if k < lo || k > hi {
                Some(false)
            } else if lo == hi {
                Some(true)
            } else {
                None
            };
            equal.map(|e| e == (cmp == Cmp::Eq))
        }
        _ => (holds(lo) == holds(hi)).then(|| holds(lo)),
    }
}

fn span(d: &Dist) -> u64 {
    (d.max_value() - d.min_value()) as u64
}

/// An exact result refused before the work: too many outcomes or steps.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum TooBig {
    /// The result would span more than [`MAX_OUTCOMES`] outcomes.
    #[error(
        "the exact result would span {0} outcomes, more than the {MAX_OUTCOMES} allowed; use `krunch roll` to sample it"
    )]
    Outcomes(u64),
    /// The work would pass [`MAX_WORK`] steps.
    #[error(
        "the exact result needs about {0:.1e} steps, more than the {MAX_WORK:.0e} allowed; use `krunch roll` to sample it"
    )]
    Work(f64),
}

fn guard_work(work: f64) -> Result<(), TooBig> {
    if work > MAX_WORK {
        Err(TooBig::Work(work))
    } else {
        Ok(())
    }
}

fn guard(width: u64) -> Result<(), TooBig> {
    if width > MAX_OUTCOMES as u64 {
        Err(TooBig::Outcomes(width))
    } else {
        Ok(())
    }
}

struct Parser<'a> {
    src: &'a str,
    /// Dice known by name.
    named: &'a [NamedDie],
    chars: Vec<(usize, char)>,
    i: usize,
    /// Open parentheses and signs around the current position.
    nesting: usize,
    /// Numbers, dice and operators so far.
    terms: usize,
}

impl Parser<'_> {
    /// Counts a new node built at character `at` and refuses it when the
    /// expression has too many terms or its value could leave the 64-bit
    /// range (so neither `exact` nor `sample` can overflow).
    fn node(&mut self, e: Expr, at: usize) -> Result<Expr, ExprError> {
        self.terms += 1;
        if self.terms > MAX_TERMS {
            return Err(self.error_at(
                at,
                &format!("more than {MAX_TERMS} numbers, dice and operators"),
            ));
        }
        let (lo, hi) = e.bounds();
        let range = i128::from(i64::MIN)..=i128::from(i64::MAX);
        if !range.contains(&lo) || !range.contains(&hi) {
            return Err(self.error_at(
                at,
                &format!(
                    "the value can reach {}, outside the 64-bit range {}..{}",
                    if range.contains(&hi) { lo } else { hi },
                    i64::MIN,
                    i64::MAX
                ),
            ));
        }
        Ok(e)
    }

    /// Enters a parenthesis or sign at character `at`.
    fn enter(&mut self, at: usize) -> Result<(), ExprError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error_at(
                at,
                &format!("more than {MAX_NESTING} nested parentheses and signs"),
            ));
        }
        Ok(())
    }

    fn error(&self, message: &str) -> ExprError {
        ExprError {
            source: self.src.to_string(),
            position: self.chars.get(self.i).map_or(self.src.len(), |c| c.0),
            message: message.to_string(),
        }
    }

    fn error_at(&self, i: usize, message: &str) -> ExprError {
        ExprError {
            source: self.src.to_string(),
            position: self.chars.get(i).map_or(self.src.len(), |c| c.0),
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).map(|c| c.1.to_ascii_lowercase())
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).map(|c| c.1.to_ascii_lowercase())
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.looking_at(s) {
            self.i += s.chars().count();
            true
        } else {
            false
        }
    }

    /// Whether the text from here starts with `s` (ignoring case).
    fn looking_at(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, c)| self.peek_at(k) == Some(c))
    }

    /// Whether a die can start with `c`: `d`, or a named die's first letter.
    fn starts_die(&self, c: char) -> bool {
        c == 'd' || self.named.iter().any(|d| d.name.starts_with(c))
    }

    /// Eats the longest named die written here, if any.
    fn named_die(&mut self) -> Option<&'static [i64]> {
        let die = self
            .named
            .iter()
            .filter(|d| !d.name.is_empty() && self.looking_at(d.name))
            .max_by_key(|d| d.name.len())?;
        self.i += die.name.chars().count();
        Some(die.faces)
    }

    /// "expected a die: d6, d{1,2,3}, ... or df", naming the named dice.
    fn expected_die(&self) -> ExprError {
        let mut kinds = vec!["d6", "d{1,2,3}"];
        kinds.extend(self.named.iter().map(|d| d.name));
        self.error(&format!("expected a die: {} or df", kinds.join(", ")))
    }

    fn number(&mut self, what: &str, max: u64) -> Result<u64, ExprError> {
        let start = self.i;
        let mut v: u64 = 0;
        while let Some(c) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v.saturating_mul(10).saturating_add(u64::from(c));
            self.i += 1;
        }
        if self.i == start {
            return Err(self.error(&format!("expected {what}")));
        }
        if v > max {
            let digits: String = self.chars[start..self.i].iter().map(|c| c.1).collect();
            return Err(self.error_at(
                start,
                &format!("{what} {digits} is more than the {max} allowed"),
            ));
        }
        Ok(v)
    }

    /// Eats a comparison operator, if one is here.
    fn cmp_op(&mut self) -> Option<Cmp> {
        Some(if self.eat("<=") {
            Cmp::Le
        } else if self.eat(">=") {
            Cmp::Ge
        } else if self.eat("==") || self.eat("=") {
            Cmp::Eq
        } else if self.eat("!=") {
            Cmp::Ne
        } else if self.eat("<") {
            Cmp::Lt
        } else if self.eat(">") {
            Cmp::Gt
        } else {
            return None;
        })
    }

    fn comparison(&mut self) -> Result<Expr, ExprError> {
        let left_start = self.i;
        let left = self.sum()?;
        self.skip_space();
        let Some(cmp) = self.cmp_op() else {
            return Ok(left);
        };
        let right = self.sum()?;
        self.skip_space();
        if matches!(self.peek(), Some('<' | '>' | '=' | '!')) {
            return Err(self.error("comparisons cannot be chained"));
        }
        // A comparison compares totals. The old success-counting form (a
        // bare pool of several dice, no keep, against one of its faces:
        // `10d6>=5`) is refused where its total reading is certain, since
        // whoever wrote it meant a count.
        let bare = self.chars.get(left_start).is_some_and(|c| c.1 != '(');
        if let (true, Expr::Pool(pool), Expr::Number(k)) = (bare, &left, &right) {
            let (lo, hi) = left.bounds();
            if pool.count >= 2
                && pool.keep.is_none()
                && pool.faces.contains(k)
                && let Some(always) = certain(cmp, lo, hi, i128::from(*k))
            {
                let written: String = self.chars[left_start..self.i].iter().map(|c| c.1).collect();
                let written = written.trim();
                return Err(self.error_at(
                        left_start,
                        &format!(
                            "{written} compares the total of {} dice ({lo} to {hi}), so it is always {always}; \
                             a comparison compares totals: to count the dice that show {} {k}, write count({written})",
                            pool.count,
                            cmp.symbol()
                        ),
                    ));
            }
        }
        self.node(
            Expr::Compare(Box::new(left), cmp, Box::new(right)),
            left_start,
        )
    }

    fn sum(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.product()?;
        loop {
            self.skip_space();
            let at = self.i;
            if self.eat("+") {
                let b = self.product()?;
                e = self.node(Expr::Add(Box::new(e), Box::new(b)), at)?;
            } else if self.peek() == Some('-') {
                self.i += 1;
                let b = self.product()?;
                e = self.node(Expr::Sub(Box::new(e), Box::new(b)), at)?;
            } else {
                return Ok(e);
            }
        }
    }

    fn product(&mut self) -> Result<Expr, ExprError> {
        let mut e = self.unary()?;
        loop {
            self.skip_space();
            let at = self.i;
            // `x` multiplies only when a number, die or '(' follows: never
            // swallowed when it does not (`d6x` is an error, not `1d6`)
            let times = self.peek() == Some('x')
                && self
                    .peek_at(1)
                    .is_some_and(|c| c.is_ascii_digit() || c == ' ' || c == '(' || c == 'd');
            if self.eat("*") || times && self.eat("x") {
                let b = self.unary()?;
                e = self.node(Expr::Mul(Box::new(e), Box::new(b)), at)?;
            } else {
                return Ok(e);
            }
        }
    }

    fn unary(&mut self) -> Result<Expr, ExprError> {
        self.skip_space();
        let at = self.i;
        if self.eat("-") {
            self.enter(at)?;
            let a = self.unary()?;
            self.nesting -= 1;
            return self.node(Expr::Neg(Box::new(a)), at);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        self.skip_space();
        match self.peek() {
            None => Err(self.error("expected a number, a die or '(' but the expression ended")),
            Some('(') => {
                let open = self.i;
                self.enter(open)?;
                self.i += 1;
                let e = self.comparison()?;
                self.nesting -= 1;
                self.skip_space();
                if !self.eat(")") {
                    return Err(if self.peek().is_none() {
                        self.error_at(open, "this '(' is never closed")
                    } else {
                        self.error("expected ')'")
                    });
                }
                Ok(e)
            }
            Some('c') if self.looking_at("count(") => self.count(),
            Some(c) if c.is_ascii_digit() => {
                let start = self.i;
                let n = self.number("a number", i64::MAX as u64)?;
                if self.peek().is_some_and(|c| self.starts_die(c)) {
                    if n == 0 || n > MAX_DICE {
                        return Err(self.error_at(
                            start,
                            &format!("a pool needs 1 to {MAX_DICE} dice, not {n}"),
                        ));
                    }
                    let pool = self.pool(n as u32)?;
                    return self.node(Expr::Pool(pool), start);
                }
                self.node(Expr::Number(n as i64), start)
            }
            Some(c) if self.starts_die(c) => {
                let start = self.i;
                let pool = self.pool(1)?;
                self.node(Expr::Pool(pool), start)
            }
            Some(c) => Err(self.error(&format!(
                "unexpected '{c}': expected a number, a die such as d6, or '('"
            ))),
        }
    }

    fn pool(&mut self, count: u32) -> Result<Pool, ExprError> {
        let faces: Vec<i64> = if let Some(faces) = self.named_die() {
            faces.to_vec()
        } else if self.eat("df") {
            vec![-1, 0, 1]
        } else if self.eat("d{") {
            let mut faces = Vec::new();
            loop {
                self.skip_space();
                let neg = self.eat("-");
                let v = self.number("a face value", 1_000_000)? as i64;
                faces.push(if neg { -v } else { v });
                self.skip_space();
                if self.eat("}") {
                    break;
                }
                if !self.eat(",") {
                    return Err(self.error("expected ',' or '}' in the list of faces"));
                }
            }
            if faces.len() as u64 > MAX_SIDES {
                return Err(self.error(&format!("a die has at most {MAX_SIDES} faces")));
            }
            faces
        } else if self.eat("d") {
            let start = self.i;
            let sides = self.number("the number of sides after 'd'", MAX_SIDES)?;
            if sides == 0 {
                return Err(self.error_at(start, "a die needs at least one side"));
            }
            (1..=sides as i64).collect()
        } else {
            return Err(self.expected_die());
        };
        let mut pool = Pool {
            count,
            faces,
            keep: None,
            explode: None,
            reroll: None,
        };
        loop {
            let at = self.i;
            let lowest = self.eat("kl");
            if lowest || self.eat("k") {
                if !lowest {
                    self.eat("h");
                }
                let k = self.number("how many dice to keep", MAX_DICE)?;
                if k == 0 || k > u64::from(count) {
                    return Err(self.error_at(at, &format!("cannot keep {k} of {count} dice")));
                }
                if pool.keep.is_some() {
                    return Err(self.error_at(at, "only one keep per pool"));
                }
                pool.keep = Some((!lowest, k as u32));
            } else if self.eat("!") {
                if pool.explode.is_some() {
                    return Err(self.error_at(at, "only one '!' per pool"));
                }
                let depth = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.number("an explosion depth", MAX_DEPTH)? as u32
                } else {
                    DEFAULT_DEPTH
                };
                if pool.faces.iter().all(|&f| f == pool.faces[0]) {
                    return Err(self.error_at(at, "a die with one face cannot explode"));
                }
                pool.explode = Some(depth);
            } else if self.eat("r") {
                if pool.reroll.is_some() {
                    return Err(self.error_at(at, "only one reroll per pool"));
                }
                let rule = if self.eat("<=") {
                    Reroll::AtMost(self.number("a face to reroll", 1_000_000)? as i64)
                } else if self.eat("<") {
                    Reroll::Below(self.number("a face to reroll", 1_000_000)? as i64)
                } else {
                    Reroll::Equal(self.number("a face to reroll", 1_000_000)? as i64)
                };
                pool.reroll = Some(rule);
            } else {
                break;
            }
        }
        if let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() && *c != 'x')
        {
            return Err(self.error(&format!(
                "unexpected '{c}' after a die (modifiers: k, kh, kl, !, r)"
            )));
        }
        Ok(pool)
    }

    /// `count(10d6>=5)`: how many dice of a pool pass a comparison with a
    /// number (`self.i` at the `c`).
    fn count(&mut self) -> Result<Expr, ExprError> {
        const FORM: &str = "count(POOL CMP NUMBER), such as count(10d6>=5)";
        let start = self.i;
        self.enter(start)?;
        self.i += "count(".len();
        self.skip_space();
        let pool_at = self.i;
        let n = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let n = self.number("how many dice", MAX_DICE)?;
            if n == 0 {
                return Err(self.error_at(
                    pool_at,
                    &format!("a pool needs 1 to {MAX_DICE} dice, not 0"),
                ));
            }
            n as u32
        } else {
            1
        };
        if !self.peek().is_some_and(|c| self.starts_die(c)) {
            return Err(self.error(&format!("expected a pool of dice: {FORM}")));
        }
        let pool = self.pool(n)?;
        if pool.keep.is_some() {
            return Err(self.error_at(
                pool_at,
                &format!("count(...) counts every die of the pool: no keep (k, kh, kl) in {FORM}"),
            ));
        }
        self.skip_space();
        let Some(cmp) = self.cmp_op() else {
            return Err(self.error(&format!(
                "expected a comparison (<= >= < > == !=) after the pool: {FORM}"
            )));
        };
        self.skip_space();
        let negative = self.eat("-");
        let k = self.number("a number to compare each die with", i64::MAX as u64)? as i64;
        let k = if negative { -k } else { k };
        self.skip_space();
        if !self.eat(")") {
            return Err(if self.peek().is_none() {
                self.error_at(start + "count".len(), "this '(' is never closed")
            } else {
                self.error(&format!("expected ')': {FORM}"))
            });
        }
        self.nesting -= 1;
        self.node(Expr::Count(pool, cmp, k), start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(s: &str) -> Dist {
        Expr::parse(s).unwrap().exact().unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn basic_sums_and_constants_by_fractions() {
        assert!(close(dist("2d6").pmf(7), 6.0 / 36.0));
        assert!(close(dist("d6+3").pmf(9), 1.0 / 6.0));
        assert!(close(dist("2*d6").pmf(12), 1.0 / 6.0));
        assert!(close(dist("d6-d6").pmf(0), 6.0 / 36.0));
        assert!(close(dist("-d6").mean(), -3.5));
        assert!(close(dist("(1+2)*3").pmf(9), 1.0));
    }

    #[test]
    fn comparisons_give_probabilities() {
        // Leadership 7 on 2D6: 21/36
        assert!(close(dist("2d6<=7").pmf(1), 21.0 / 36.0));
        assert!(close(dist("d6+3>=7").pmf(1), 0.5));
        assert!(close(dist("(2d6)<=5").pmf(1), 10.0 / 36.0));
        // 3d6 vs 3d6 opposed: P(a > b) = (1 - P(tie)) / 2; P(tie) = 4332/46656
        assert!(close(
            dist("3d6>3d6").pmf(1),
            (1.0 - 4332.0 / 46656.0) / 2.0
        ));
        assert!(Expr::parse("2d6<=7").unwrap().is_probability());
    }

    #[test]
    fn a_comparison_of_a_pool_compares_its_total() {
        // Leadership 6 on 2D6: totals 2..=6 come up 1+2+3+4+5 = 15 ways of 36
        assert!(close(dist("2d6<=6").pmf(1), 15.0 / 36.0));
        // totals 2 and 3: 1 + 2 = 3 ways of 36 (the old reading counted the
        // dice showing 3 or less: 1 with probability 1/2)
        assert!(close(dist("2d6<=3").pmf(1), 3.0 / 36.0));
        assert!(close(dist("2d6 <= 3").pmf(1), 3.0 / 36.0));
        // parentheses change nothing; a certain total in them is accepted
        assert!(close(dist("(2d6)<=6").pmf(1), 15.0 / 36.0));
        assert_eq!(dist("(10d6)>=5").pmf(1), 1.0);
        assert!(matches!(Expr::parse("2d6<=6").unwrap(), Expr::Compare(..)));
        assert_eq!(
            Expr::parse("2d6<=6").unwrap().describe(),
            "P(total of 2d6 <= 6)"
        );
    }

    #[test]
    fn count_counts_the_dice_that_pass() {
        // each die shows 5 or 6 with probability 1/3: binomial(10, 1/3)
        let d = dist("count(10d6>=5)");
        assert!(close(d.mean(), 10.0 / 3.0));
        assert!(close(d.pmf(10), (1.0f64 / 3.0).powi(10)));
        assert!(matches!(
            Expr::parse("count(10d6>=5)").unwrap(),
            Expr::Count(..)
        ));
        // what `2d6<=3` and `2d6<=6` meant before: binomial(2, 1/2), and 2 always
        assert!(close(dist("count(2d6<=3)").pmf(1), 0.5));
        assert_eq!(dist("COUNT( 2d6 <= 6 )").pmf(2), 1.0);
        // a count is a number like any other: P(at least 3 of 10 pass) =
        // 1 - (2^10 + 10*2^9 + 45*2^8) / 3^10 = 1 - 17664/59049
        assert!(close(dist("count(10d6>=5)>=3").pmf(1), 41385.0 / 59049.0));
        assert!(close(dist("count(d6>=5)+1").mean(), 4.0 / 3.0));
        // negative numbers for Fudge dice; rerolls and named faces too
        assert!(close(dist("count(4df==-1)").mean(), 4.0 / 3.0));
        // a d6 rerolling 1s shows 5+ with 2/6 + 1/6 * 2/6 = 14/36
        assert!(close(dist("count(3d6r1>=5)").mean(), 3.0 * 14.0 / 36.0));
        assert_eq!(
            Expr::parse("count(10d6>=5)").unwrap().describe(),
            "count of dice in 10d6 showing >= 5"
        );
    }

    #[test]
    fn the_old_counting_form_names_the_count_to_write() {
        let e = Expr::parse("10d6>=5").unwrap_err();
        assert_eq!(e.position, 0);
        assert_eq!(
            e.message,
            "10d6>=5 compares the total of 10 dice (10 to 60), so it is always true; \
             a comparison compares totals: to count the dice that show >= 5, write count(10d6>=5)"
        );
        for (src, words) in [
            (
                "2d6==1",
                "always false; a comparison compares totals: to count the dice that show == 1, write count(2d6==1)",
            ),
            ("3d6 < 2", "always false"),
            (
                "4d6 != 1",
                "always true; a comparison compares totals: to count the dice that show != 1, write count(4d6 != 1)",
            ),
            ("3sf>=0", "count(3sf>=0)"),
        ] {
            let e = Expr::parse_with(
                src,
                &[NamedDie {
                    name: "sf",
                    faces: &[1, 1, 2, 2, 3, 0],
                    about: "",
                }],
            )
            .unwrap_err();
            assert!(e.message.contains(words), "{src}: {e}");
        }
        // and what it names parses
        assert!(Expr::parse("count(10d6>=5)").is_ok());
    }

    #[test]
    fn count_errors_say_what_to_write() {
        let cases = [
            ("count(4d6k3>=5)", 6, "no keep"),
            ("count(2d6)", 9, "expected a comparison"),
            ("count(2d6>=5", 5, "never closed"),
            ("count(>=5)", 6, "expected a pool of dice"),
            ("count(2d6>=d6)", 11, "a number to compare"),
            ("count(2d6>=5)x", 13, "unexpected 'x'"),
            ("count(0d6>=5)", 6, "1 to 1000"),
            ("count(2d6>=5 3)", 13, "expected ')'"),
        ];
        for (src, pos, words) in cases {
            let e = Expr::parse(src).unwrap_err();
            assert_eq!(e.position, pos, "{src}: {e}");
            assert!(e.message.contains(words), "{src}: {e}");
        }
    }

    #[test]
    fn keep_explode_reroll_and_custom_faces() {
        assert!(close(dist("4d6k3").mean(), 15869.0 / 1296.0));
        assert!(close(dist("4d6kh3").mean(), 15869.0 / 1296.0));
        assert!(close(dist("2d20kl1").pmf(1), 39.0 / 400.0));
        assert!(close(dist("d6!1").pmf(12), 1.0 / 36.0));
        assert!(close(dist("d6!").pmf(7), 1.0 / 36.0));
        assert!(close(dist("d6r1").pmf(1), 1.0 / 36.0));
        assert!(close(dist("d6r<3").pmf(1), 2.0 / 36.0));
        assert!(close(dist("d{1,1,2,2,3,0}").mean(), 1.5));
        assert!(close(dist("df").mean(), 0.0));
        assert!(close(dist("d3").pmf(2), 1.0 / 3.0));
    }

    #[test]
    fn named_dice_come_from_the_caller() {
        const DICE: &[NamedDie] = &[
            NamedDie {
                name: "ab",
                faces: &[1, 1, 2],
                about: "a test die",
            },
            NamedDie {
                name: "abc",
                faces: &[5],
                about: "a longer name",
            },
        ];
        let exact = |s: &str| Expr::parse_with(s, DICE).unwrap().exact().unwrap();
        assert!(close(exact("ab").pmf(1), 2.0 / 3.0));
        assert!(close(exact("AB+ab").pmf(4), 1.0 / 9.0));
        assert!(close(exact("3abk1").pmf(2), 1.0 - 8.0 / 27.0));
        assert_eq!(exact("abc").pmf(5), 1.0);
        assert_eq!(Expr::parse_with("2ab", DICE), Expr::parse("2d{1,1,2}"));
        // unknown without the table, and the error names what is known
        let e = Expr::parse("ab").unwrap_err();
        assert!(e.message.contains("unexpected 'a'"), "{e}");
        let e = Expr::parse_with("3a", DICE).unwrap_err();
        assert_eq!(e.message, "expected a die: d6, d{1,2,3}, ab, abc or df");
        assert_eq!(e.position, 1);
        let e = Expr::parse("3q").unwrap_err();
        assert_eq!(e.message, "unexpected 'q'");
    }

    #[test]
    fn big_pools_are_exact_and_quick() {
        let d = dist("100d6k10");
        assert_eq!(d.max_value(), 60);
        let total: f64 = d.iter().map(|(_, p)| p).sum();
        assert!(close(total, 1.0));
    }

    #[test]
    fn errors_point_at_the_character() {
        let cases = [
            ("", 0, "empty"),
            ("2d", 2, "sides"),
            ("2d6+", 4, "ended"),
            ("(2d6", 0, "never closed"),
            ("4d6k5", 3, "cannot keep 5 of 4"),
            ("d0", 1, "at least one side"),
            ("2d6 $ 3", 4, "unexpected '$'"),
            ("1000000d6", 0, "1 to 1000"),
            ("d6<3<4", 4, "chained"),
            ("d{1,2", 5, "','"),
            ("4d6q", 3, "unexpected 'q'"),
            ("d6!!", 3, "only one '!'"),
            ("4d6k", 4, "how many dice to keep"),
            ("4d6kl", 5, "how many dice to keep"),
            ("d6r", 3, "a face to reroll"),
            ("d6!101", 3, "100 allowed"),
        ];
        for (src, pos, words) in cases {
            let e = Expr::parse(src).unwrap_err();
            assert_eq!(e.position, pos, "{src}: {e}");
            assert!(e.message.contains(words), "{src}: {e}");
        }
    }

    #[test]
    fn deep_and_long_expressions_are_refused_not_crashed() {
        // each of these overflowed the stack (exit 134) before the limits
        let deep = format!("{}1{}", "(".repeat(5400), ")".repeat(5400));
        let e = Expr::parse(&deep).unwrap_err();
        assert!(e.message.contains("nested"), "{e}");
        assert_eq!(e.position, MAX_NESTING);
        let signs = format!("{}1", "-".repeat(20_900));
        assert!(Expr::parse(&signs).unwrap_err().message.contains("nested"));
        let flat = vec!["1"; 20_860].join("+");
        assert!(
            Expr::parse(&flat)
                .unwrap_err()
                .message
                .contains("operators")
        );
        let long = format!("d{{{}}}", vec!["1"; 60_000].join(","));
        assert!(
            Expr::parse(&long)
                .unwrap_err()
                .message
                .contains("characters")
        );
        // at the limits themselves everything still evaluates
        let ok = format!("{}1{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(dist(&ok).pmf(1), 1.0);
        let ok = vec!["d2"; MAX_TERMS / 2].join("+");
        assert!(close(dist(&ok).mean(), 1.5 * (MAX_TERMS / 2) as f64));
    }

    #[test]
    fn overflow_is_an_error_in_parse_so_exact_and_sample_agree() {
        for src in [
            "9223372036854775807+1",
            "d6 < 9223372036854775807+d2",
            "-9223372036854775807-2",
            "9223372036854775807*2",
            "3037000500*3037000500",
            "1000d{0,1000000}!100*1000d{0,1000000}!100",
            "99999999999999999999",
        ] {
            let e = Expr::parse(src).unwrap_err();
            assert!(
                e.message.contains("64-bit") || e.message.contains("allowed"),
                "{src}: {e}"
            );
        }
        // exactly at the limits: fine, and exact
        assert_eq!(dist("9223372036854775806+d1").max_value(), i64::MAX);
        assert_eq!(dist("-9223372036854775807-d1").min_value(), i64::MIN);
        assert_eq!(dist("d6 < 9223372036854775806+d1").pmf(1), 1.0);
    }

    #[test]
    fn accepted_input_means_what_it_says() {
        // a trailing 'x' is not swallowed
        for src in ["d6x", "2d6x+3", "3x"] {
            let e = Expr::parse(src).unwrap_err();
            assert!(e.message.contains("unexpected 'x'"), "{src}: {e}");
        }
        assert!(close(dist("2x3").pmf(6), 1.0));
        // a constant product is one outcome, however large
        assert_eq!(dist("1001*1000").pmf(1_001_000), 1.0);
        assert_eq!(dist("d2*1000").max_value(), 2000);
    }

    #[test]
    fn a_wide_die_exploding_is_refused_before_the_work() {
        let e = Expr::parse("d{0,1000000}!100")
            .unwrap()
            .exact()
            .unwrap_err();
        assert!(matches!(e, TooBig::Outcomes(_)), "{e}");
        let e = Expr::parse("10d{0,1000000}!100>=5")
            .unwrap()
            .exact()
            .unwrap_err();
        assert!(matches!(e, TooBig::Outcomes(_)), "{e}");
    }

    #[test]
    fn too_large_results_are_refused_not_allocated() {
        let e = Expr::parse("1000d10000*1000d10000")
            .unwrap()
            .exact()
            .unwrap_err();
        assert!(matches!(e, TooBig::Outcomes(_)), "{e}");
        let e = Expr::parse("1000d6k999").unwrap().exact().unwrap_err();
        assert!(matches!(e, TooBig::Work(_)), "{e}");
        let e = Expr::parse("500d1000").unwrap().exact().unwrap_err();
        assert!(matches!(e, TooBig::Work(_)), "{e}");
    }
}
