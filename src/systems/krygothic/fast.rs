//! Kry-Gothic's own fast samplers' shared pieces: runs of attribute checks
//! (pinning's re-rolls, an order combo's tests), each check one step drawn
//! from its pass law, and the statistical bound their tests use.
//!
//! A run of checks stops at its first check of one kind (pinning: the
//! first pass; an order combo: the first fail) or after a number of
//! checks. Each check is a step: pass or fail with its probability, worked
//! out once per model by enumerating one die of the check through the
//! rule's own [`attribute_check`] on every face it can show (then the
//! chance that some of the check's dice passes), never from the run's
//! final law. A check is a 32-bit uniform against that probability (two a
//! word, an absolute error under `2^-32` a check); the checks' stop bits
//! are laid out 62 at a time in a mask, and a trial's checks are read by
//! counting the mask's trailing zeros, so a trial is a few instructions and
//! no branch per check.

use super::close::{Attack, CcOut, Defence, Dread, Exchange, pools};
use super::dice::{Critical, PoolOut, Reading, attribute_check, depth_for};
use crate::dice::{BatchedRoller, GivenFaces, Roller, Tally, Times, enumerate};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{MetricDef, Model, Sampler};
use std::collections::HashMap;

/// P(an attribute check of `dice` dice meets `target`), from one die
/// enumerated through the rule's own check.
pub fn p_check(dice: u32, target: i32, reading: Reading) -> f64 {
    let one = enumerate(1 << 16, |d| attribute_check(d, 1, target, reading))
        .expect("one die of a check has few paths");
    let p1: f64 = one.iter().filter(|(pass, _)| *pass).map(|x| x.1).sum();
    1.0 - (1.0 - p1).powi(dice as i32)
}

/// The 32-bit threshold of an event of probability `p`: a uniform 32-bit
/// draw below it happens with probability `p` within `2^-33`.
pub fn threshold(p: f64) -> u64 {
    (p * 4_294_967_296.0).round().clamp(0.0, 4_294_967_296.0) as u64
}

/// A stream of checks, each stopping a run with probability
/// `stop / 2^32`: their stop bits in a mask, first check lowest.
pub struct Checks {
    stop: u64,
    mask: u64,
    avail: u32,
}

impl Checks {
    /// Checks that stop a run when a 32-bit draw is below `stop`.
    pub fn new(stop: u64) -> Self {
        Checks {
            stop,
            mask: 0,
            avail: 0,
        }
    }

    /// Tops the mask up to at least 63 checks, two a word.
    #[inline]
    fn refill(&mut self, roller: &mut BatchedRoller) {
        while self.avail <= 62 {
            let w = roller.next_word();
            let lo = u64::from(u64::from(w as u32) < self.stop);
            let hi = u64::from((w >> 32) < self.stop);
            self.mask |= (lo | hi << 1) << self.avail;
            self.avail += 2;
        }
    }

    #[inline]
    fn consume(&mut self, n: u32) {
        self.mask = if n >= 64 { 0 } else { self.mask >> n };
        self.avail -= n;
    }

    /// Checks that do not stop before the first that does, at most `cap`
    /// (`cap` checks read when none stops, else the stopping one too).
    #[inline]
    pub fn run(&mut self, roller: &mut BatchedRoller, cap: u32) -> u32 {
        let mut k = 0;
        while k < cap {
            if self.avail < 32 {
                self.refill(roller);
            }
            let zeros = self.mask.trailing_zeros().min(self.avail);
            let need = cap - k;
            if zeros >= need {
                self.consume(need);
                return cap;
            }
            if zeros < self.avail {
                self.consume(zeros + 1);
                return k + zeros;
            }
            k += zeros;
            self.consume(zeros);
        }
        k
    }
}

/// The [`Model`] of a rule whose trial is a run of checks: the
/// [`OutcomeModel`] of the rule for its exact law and reference sampler,
/// and a run of [`Checks`] for `run_chunk`, its length (`0..=cap`) read as
/// the rule's outcome through `outcomes`.
pub struct CheckRuns<O: Outcomes> {
    model: OutcomeModel<O>,
    stop: u64,
    cap: u32,
    outcomes: Vec<O::Out>,
}

impl<O: Outcomes> CheckRuns<O> {
    /// The model of `rule`: checks stopping with probability `p_stop`, at
    /// most `cap` of them not stopping, a run of `k` being `outcomes[k]`.
    pub fn new(rule: O, p_stop: f64, cap: u32, outcomes: Vec<O::Out>) -> Self {
        assert_eq!(outcomes.len(), cap as usize + 1);
        CheckRuns {
            model: OutcomeModel::new(rule),
            stop: threshold(p_stop),
            cap,
            outcomes,
        }
    }

    /// Trials counted by their run's length.
    pub fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let cells = self.outcomes.len();
        // four histograms side by side, trial after trial in turn
        let mut counts = vec![0u64; 4 * cells];
        let mut checks = Checks::new(self.stop);
        let mut left = trials;
        while left >= 4 {
            for lane in 0..4 {
                let k = checks.run(roller, self.cap) as usize;
                counts[4 * k + lane] += 1;
            }
            left -= 4;
        }
        for _ in 0..left {
            let k = checks.run(roller, self.cap) as usize;
            counts[4 * k] += 1;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

impl<O: Outcomes> Model for CheckRuns<O> {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let counts = self.count(roller, trials);
        record_counts(self.model.rule(), &self.outcomes, &counts, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        Sampler::Custom("check runs (a check a 32-bit draw of its pass law)")
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

/// Dice faces (1-6) of face index `i` of `n` dice, first die most
/// significant.
pub fn digits(mut i: u32, n: u32) -> Vec<u32> {
    let mut d = vec![0; n as usize];
    for k in (0..n as usize).rev() {
        d[k] = i % 6 + 1;
        i /= 6;
    }
    d
}

/// Most faces of one step's table (`6^6`).
const STEP_FACES: u32 = 46_656;

/// Most entries of an exchange's outcome rows together.
const MOST_ENTRIES: usize = 1 << 20;

/// `6^n` where it is at most [`STEP_FACES`].
fn faces_of(n: u32) -> Option<u32> {
    6u32.checked_pow(n).filter(|&f| f <= STEP_FACES)
}

/// One side of an exchange's fear test (the defender's CC halved or not):
/// its steps' face tables.
#[derive(Debug)]
struct Side {
    /// `6^dice` of the attacking pool, and each face's class (a distinct
    /// pool outcome: kept, critical pass, critical fail) times `kept`.
    att_faces: u32,
    class: Vec<u32>,
    /// `6^dice` of the defence pool, and each face's kept passes.
    def_faces: u32,
    dk: Vec<u32>,
    /// `row[class + dk]`: where the rest of the attack's faces start in
    /// [`ExchangeFaces::entry`].
    row: Vec<u32>,
    /// Faces of the rest: the weapon-break D6s, then the wound dice.
    rest: u32,
}

/// A close-combat attack ([`Exchange`]) sampled step by step, each step's
/// dice real dice read as one face index of a table laid out once per
/// model through the rule's own code: the defender's fear test (`6^will`
/// faces, each passing or failing), the attacking pool (`6^CC` faces, each
/// read to its kept passes and criticals), the defence pool (each face to
/// its kept passes), and the rest: the D6 of a bunt's or a deflect's
/// break, then the wound dice (the first `n` of them roll, `n` the dice
/// left or, on a critical fail, the dice against the attacker's own
/// unit). The rest's table is laid out per pair of pool outcomes, so a
/// trial is four digits of the roller's words (the roller's own batching)
/// and four look-ups; the attack's outcome is an index of its distinct
/// outcomes. It applies where no die is re-rolled (every target 6 or
/// less, criticals by three sixes) and each step's faces fit `6^6`.
#[derive(Debug)]
pub struct ExchangeFaces {
    /// `6^will` faces of the fear test, and each face's side (1: failed);
    /// one face, side 0, where no test is taken.
    fear_faces: u32,
    fear: Vec<u8>,
    sides: Vec<Side>,
    entry: Vec<u32>,
    ends: Vec<CcOut>,
}

impl ExchangeFaces {
    /// The tables of `ex`, or `None` where they do not apply.
    pub fn new(ex: &Exchange) -> Option<Self> {
        let f = &ex.fight;
        let reading = f.reading;
        let settles = |t: i32| depth_for(t, reading) == 1;
        if f.critical != Critical::ThreeSixes {
            return None;
        }
        let (fear_faces, fear) = match f.dread {
            Dread::None => (1, vec![0u8]),
            _ => {
                let w = f.will_dice();
                let faces = faces_of(w)?;
                let fails = (0..faces)
                    .map(|i| {
                        let d = digits(i, w);
                        u8::from(!attribute_check(&mut GivenFaces::new(&d), w, 6, reading))
                    })
                    .collect();
                (faces, fails)
            }
        };
        let mut ids: HashMap<CcOut, u32> = HashMap::new();
        let mut ends = Vec::new();
        let mut entry: Vec<u32> = Vec::new();
        let mut rows: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut sides = Vec::new();
        for fear_failed in [false, true] {
            if !fear.contains(&u8::from(fear_failed)) {
                // a side no face reaches: an empty placeholder
                sides.push(Side {
                    att_faces: 1,
                    class: vec![0],
                    def_faces: 1,
                    dk: vec![0],
                    row: vec![0],
                    rest: 1,
                });
                continue;
            }
            let n = f.numbers(ex.attack, ex.defence, fear_failed);
            let (att, def) = pools(f, &n, ex.attack);
            if !settles(att.target) || !settles(def.target) {
                return None;
            }
            let att_faces = faces_of(u32::from(att.dice))?;
            let def_faces = faces_of(u32::from(def.dice))?;
            let mut classes: Vec<PoolOut> = Vec::new();
            let mut class = Vec::with_capacity(att_faces as usize);
            for i in 0..att_faces {
                let d = digits(i, u32::from(att.dice));
                let po = att.roll(&mut GivenFaces::new(&d));
                let c = match classes.iter().position(|c| *c == po) {
                    Some(c) => c,
                    None => {
                        classes.push(po);
                        classes.len() - 1
                    }
                };
                class.push(c as u32);
            }
            let dk: Vec<u32> = (0..def_faces)
                .map(|i| {
                    let d = digits(i, u32::from(def.dice));
                    u32::from(def.roll(&mut GivenFaces::new(&d)).kept)
                })
                .collect();
            let kept = dk.iter().max().copied().unwrap_or(0) + 1;
            // the most wound dice any pair of pool outcomes rolls, each
            // against a target that settles on one roll
            let mut most = 0;
            for po in &classes {
                for k in 0..kept {
                    let o = ex.base(
                        &n,
                        fear_failed,
                        po.kept,
                        po.critical_pass,
                        po.critical_fail,
                        k as u8,
                    );
                    let (wd, target) = ex.wound_roll(&n, o.critical_fail, o.left);
                    if wd > 0 && !settles(target) {
                        return None;
                    }
                    most = most.max(wd);
                }
            }
            let wound_faces = faces_of(most)?;
            let breaks =
                u32::from(ex.attack == Attack::Bunt) + u32::from(ex.defence == Defence::Deflect);
            let rest = wound_faces * 6u32.pow(breaks);
            if rest > STEP_FACES {
                return None;
            }
            let wound_digits: Vec<Vec<u32>> = (0..wound_faces).map(|j| digits(j, most)).collect();
            let mut row = Vec::with_capacity(classes.len() * kept as usize);
            for po in &classes {
                for k in 0..kept {
                    let k = k as u8;
                    let mut cells = Vec::with_capacity(rest as usize);
                    for r in 0..rest {
                        let wound = &wound_digits[(r % wound_faces) as usize];
                        let mut d6 = r / wound_faces;
                        let mut o = ex.base(
                            &n,
                            fear_failed,
                            po.kept,
                            po.critical_pass,
                            po.critical_fail,
                            k,
                        );
                        if ex.attack == Attack::Bunt {
                            o.attacker_weapon_breaks = o.hits > 0 && d6 % 6 + 1 == 6;
                            d6 /= 6;
                        }
                        let negated = k.min(o.hits);
                        if ex.defence == Defence::Deflect && negated > 0 {
                            o.defender_weapon_breaks = f.deflect_break.breaks(d6 % 6 + 1, negated);
                        }
                        let (wd, target) = ex.wound_roll(&n, o.critical_fail, o.left);
                        let passes = wound[..wd as usize]
                            .iter()
                            .filter(|&&x| x as i32 >= target)
                            .count() as u32;
                        let o = ex.finish(&n, o, passes);
                        let next = ends.len() as u32;
                        cells.push(*ids.entry(o).or_insert_with(|| {
                            ends.push(o);
                            next
                        }));
                    }
                    let start = match rows.get(&cells) {
                        Some(&start) => start,
                        None => {
                            let at = entry.len() as u32;
                            entry.extend_from_slice(&cells);
                            rows.insert(cells, at);
                            if entry.len() > MOST_ENTRIES {
                                return None;
                            }
                            at
                        }
                    };
                    row.push(start);
                }
            }
            sides.push(Side {
                att_faces,
                class: class.iter().map(|c| c * kept).collect(),
                def_faces,
                dk,
                row,
                rest,
            });
        }
        Some(ExchangeFaces {
            fear_faces,
            fear,
            sides,
            entry,
            ends,
        })
    }

    /// The distinct outcomes, in the order [`ExchangeFaces::draw`] names
    /// them.
    pub fn ends(&self) -> &[CcOut] {
        &self.ends
    }

    /// One attack: the index of its outcome in [`ExchangeFaces::ends`].
    #[inline]
    pub fn draw(&self, roller: &mut BatchedRoller) -> u32 {
        let side = if self.fear_faces > 1 {
            &self.sides[usize::from(self.fear[roller.roll(self.fear_faces) as usize - 1])]
        } else {
            &self.sides[usize::from(self.fear[0])]
        };
        let class = side.class[roller.roll(side.att_faces) as usize - 1];
        let dk = side.dk[roller.roll(side.def_faces) as usize - 1];
        let row = side.row[(class + dk) as usize];
        self.entry[(row + roller.roll(side.rest) - 1) as usize]
    }

    /// Trials counted by their outcome (four histograms side by side).
    pub fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let mut counts = vec![0u64; 4 * self.ends.len()];
        let mut left = trials;
        while left >= 4 {
            for lane in 0..4 {
                counts[4 * self.draw(roller) as usize + lane] += 1;
            }
            left -= 4;
        }
        for _ in 0..left {
            counts[4 * self.draw(roller) as usize] += 1;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

/// Records a chunk's `counts` of `ends` through `rule`, each outcome once.
pub fn record_counts<O: Outcomes>(
    rule: &O,
    ends: &[O::Out],
    counts: &[u64],
    trials: u64,
    tally: &mut Tally,
) {
    for (o, &count) in ends.iter().zip(counts) {
        if count > 0 {
            rule.record(
                o,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
    }
    tally.add_trials(trials);
}

/// The sampler of [`ExchangeFaces`].
pub const EXCHANGE_FACES: Sampler =
    Sampler::Custom("exchange face tables (each step's dice a face index)");

/// Test helpers: counts held to probabilities by Bernstein's inequality.
#[cfg(test)]
pub(crate) mod check {
    /// Largest deviation of a count of `n` trials from `n p` that
    /// Bernstein's inequality allows with probability `1 - delta`:
    /// `P(|X - np| >= t) <= 2 exp(-t^2 / (2 (n p (1 - p) + t / 3)))`
    /// (valid for every `p`, rare cells included).
    pub fn bernstein(n: f64, p: f64, delta: f64) -> f64 {
        let l = (2.0 / delta).ln();
        let var = n * p * (1.0 - p);
        l / 3.0 + ((l / 3.0).powi(2) + 2.0 * var * l).sqrt()
    }

    /// Holds `counts` (of `n` trials) to `probs`, cell by cell, every cell
    /// within Bernstein's bound at a family-wise 1e-6 (Bonferroni over the
    /// cells); a cell of probability 0 must stay empty.
    pub fn counts_match(what: &str, counts: &[u64], probs: &[f64]) {
        assert_eq!(counts.len(), probs.len(), "{what}");
        let n: u64 = counts.iter().sum();
        let delta = 1e-6 / probs.len() as f64;
        for (i, (&c, &p)) in counts.iter().zip(probs).enumerate() {
            let dev = (c as f64 - n as f64 * p).abs();
            let bound = bernstein(n as f64, p, delta);
            assert!(
                dev <= bound,
                "{what}: cell {i}: {c} of {n}, expected {} (p {p}), off by {dev} > {bound}",
                n as f64 * p
            );
            if p == 0.0 {
                assert_eq!(c, 0, "{what}: cell {i} cannot happen");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One die against 4 (no re-roll): 1/2; against 7 by the table (a 6,
    /// then 3+ on the re-roll): 1/6 x 4/6 = 1/9; the additive reading (a
    /// 6 then 1+): 1/6. Three dice against 4: 1 - (1/2)^3 = 7/8.
    #[test]
    fn check_probabilities_by_hand() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-15;
        assert!(close(p_check(1, 4, Reading::Table), 0.5));
        assert!(close(p_check(1, 7, Reading::Table), 1.0 / 9.0));
        assert!(close(p_check(1, 7, Reading::Additive), 1.0 / 6.0));
        assert!(close(p_check(3, 4, Reading::Table), 7.0 / 8.0));
        assert_eq!(threshold(1.0), 1 << 32);
        assert_eq!(threshold(0.5), 1 << 31);
    }

    /// Runs of checks stopping with probability 1/3, at most 5 going on: a
    /// run of k < 5 has probability (2/3)^k (1/3), of 5 (2/3)^5; held cell
    /// by cell at a fixed seed, and every check used once: the mean run's
    /// draws, sum (k + 1) for k < 5 and 5 for the cap, match the words.
    #[test]
    fn runs_follow_the_truncated_geometric_law() {
        let stop = threshold(1.0 / 3.0);
        let mut roller = BatchedRoller::new(11, &[4]);
        let mut checks = Checks::new(stop);
        let mut counts = [0u64; 6];
        let mut read = 0u64;
        let trials = 1_000_000;
        for _ in 0..trials {
            let k = checks.run(&mut roller, 5);
            read += u64::from(if k == 5 { 5 } else { k + 1 });
            counts[k as usize] += 1;
        }
        let q: f64 = 2.0 / 3.0;
        let probs: Vec<f64> = (0..6)
            .map(|k| if k == 5 { q.powi(5) } else { q.powi(k) / 3.0 })
            .collect();
        check::counts_match("runs", &counts, &probs);
        // two checks a word: what was drawn is what was read, plus what
        // is still in the mask
        assert_eq!(2 * roller.words(), read + u64::from(checks.avail));
        // a cap of 0 reads nothing
        assert_eq!(checks.run(&mut roller, 0), 0);
        // never stopping: the cap; always stopping: 0
        let mut never = Checks::new(0);
        assert_eq!(never.run(&mut roller, 200), 200);
        let mut always = Checks::new(1 << 32);
        assert_eq!(always.run(&mut roller, 200), 0);
    }
}
