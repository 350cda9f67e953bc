//! Shooting by shot laws: every attack the single-shot face tables do not
//! cover (Sustained Fire, templates, catching fire, Damage rolls, escape
//! tests, the firer's explosion) as a few alias draws a trial, and its
//! exact value chained shot by shot.
//!
//! A trial has three kinds of step, each drawn from its exact law. The laws
//! are built once per model by enumerating the rule's own steps
//! ([`ShotRule`]'s `step` on a [`ShotState`]):
//! - the set-up: the Sustained Fire dice and their jams' Ammo Rolls, one
//!   draw giving the shots to resolve and the ammo and explosion flags;
//! - each shot: one draw from the shot's law at the part of the state a
//!   later shot depends on (the target's condition, and whether the weapon
//!   has exploded: it explodes once), adding its hits, wounds and Damage;
//! - the end: the escape from Pinning and a Down target's Recovery rolls,
//!   one draw (none where that law is certain).
//!
//! Counters never steer a later shot, so they ride along as increments and
//! the laws are keyed by a few dozen conditions, where a step-law walk over
//! whole states meets thousands of counter combinations in every chunk.
//! No trial is drawn from its final law: the shots chain draw by draw, as
//! the exact evaluator chains them. That evaluator keeps the hit and wound
//! counts the families need and carries unsaved wounds and Damage as
//! expectations, so four Sustained Fire dice with D6 Damage take
//! milliseconds where the whole-state chain ran for minutes.

use super::{LEDGER, LEDGER_FLAGS, ShotRule, ShotState, ledger};
use crate::dice::{Alias, BatchedRoller, Expectation, Replay, StateDist, Tally, Times};
use crate::engine::step_model::{Mechanic, STEP_PATHS};
use crate::engine::{EXACT_WORK, NoExact};
use crate::systems::gce::warrior::Condition;
use std::collections::BTreeMap;

/// Flags a draw can raise (they only ever turn on).
pub(super) const PINNED: u8 = 1;
pub(super) const ON_FIRE: u8 = 2;
pub(super) const OUT_OF_AMMO: u8 = 4;
pub(super) const FIRER_WOUNDED: u8 = 8;
pub(super) const PINNED_THROUGH: u8 = 16;
pub(super) const EVENTUALLY_OUT: u8 = 32;

/// What a later shot depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Core {
    pub(super) target: Condition,
    pub(super) exploded: bool,
}

/// What a draw adds to a trial, and the core it leaves the trial at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Move {
    to: u16,
    /// Shots to resolve (the set-up's draw only).
    shots: u8,
    hits: u8,
    wounds: u8,
    unsaved: u8,
    damage: u16,
    flags: u8,
}

/// A law ready to draw from: no word spent where it is certain.
#[derive(Debug)]
enum Draw<T> {
    Certain(T),
    Table(Alias<T>),
}

impl<T: Copy> Draw<T> {
    fn new(law: &[(T, f64)]) -> Self {
        match law {
            [(only, _)] => Draw::Certain(*only),
            _ => Draw::Table(Alias::new(law)),
        }
    }

    #[inline]
    fn draw(&self, roller: &mut BatchedRoller) -> T {
        match self {
            Draw::Certain(t) => *t,
            Draw::Table(a) => *a.sample(roller.next_word()),
        }
    }
}

/// The laws of one shooting attack's steps.
#[derive(Debug)]
pub struct ShotLaws {
    cores: Vec<Core>,
    setup: Vec<(Move, f64)>,
    /// Each set-up outcome's ledger ([`ledger`]), for the exact evaluator.
    setup_ledger: Vec<[u16; LEDGER]>,
    /// Per core: one shot's law.
    shot: Vec<Vec<(Move, f64)>>,
    /// Per core: each shot outcome's ledger.
    shot_ledger: Vec<Vec<[u16; LEDGER]>>,
    /// Per core and Pinned or not (`2 * core + pinned`): the flags the end
    /// raises.
    end: Vec<Vec<(u8, f64)>>,
    setup_draw: Draw<Move>,
    shot_draws: Vec<Draw<Move>>,
    end_draws: Vec<Draw<u8>>,
    /// Dice paths enumerated to build the laws (the exact budget counts
    /// them).
    paths: u64,
}

/// The flags of `s` a draw reports.
pub(super) fn flags_of(s: &ShotState) -> u8 {
    let mut f = 0;
    for (on, bit) in [
        (s.pinned, PINNED),
        (s.on_fire, ON_FIRE),
        (s.out_of_ammo, OUT_OF_AMMO),
        (s.firer_wounded, FIRER_WOUNDED),
        (s.pinned_through_turn, PINNED_THROUGH),
        (s.eventually_out, EVENTUALLY_OUT),
    ] {
        if on {
            f |= bit;
        }
    }
    f
}

impl ShotLaws {
    /// The laws of `rule`'s steps, or why they cannot be enumerated (a
    /// step with more than [`STEP_PATHS`] dice paths, or more conditions
    /// than a law's index holds).
    pub fn build(rule: &ShotRule) -> Result<Self, NoExact> {
        let (setup_steps, shot_step, end_steps) = rule.phases();
        let mut paths = 0u64;
        let too_many = |_: crate::dice::TooManyPaths| NoExact::TooManyPaths { limit: STEP_PATHS };
        let run = |s: ShotState, steps: std::ops::Range<usize>, paths: &mut u64| {
            let mut d = StateDist::certain(s);
            for i in steps {
                d = d.step_counted(STEP_PATHS, paths, |r: &mut Replay, s| rule.step(i, r, s))?;
            }
            Ok(d)
        };
        let mut cores: Vec<Core> = Vec::new();
        let mut ids: BTreeMap<Core, u16> = BTreeMap::new();
        let mut id_of = |c: Core, cores: &mut Vec<Core>| -> Result<u16, NoExact> {
            if let Some(&i) = ids.get(&c) {
                return Ok(i);
            }
            let i = u16::try_from(cores.len()).map_err(|_| {
                NoExact::Other("more target conditions than shot laws index".into())
            })?;
            ids.insert(c, i);
            cores.push(c);
            Ok(i)
        };
        let core_of = |s: &ShotState| Core {
            target: s.target,
            exploded: s.exploded,
        };
        let ledger_of = |s: &ShotState| ledger(s).map(|v| u16::try_from(v).unwrap_or(u16::MAX));
        let mut setup = Vec::new();
        let mut setup_ledger = Vec::new();
        for (s, p) in run(rule.start(), setup_steps, &mut paths)
            .map_err(too_many)?
            .iter()
        {
            let to = id_of(core_of(s), &mut cores)?;
            let mv = Move {
                to,
                shots: s.shots_left,
                flags: flags_of(s),
                ..Move::default()
            };
            setup.push((mv, p));
            setup_ledger.push(ledger_of(s));
        }
        // every core a shot can lead to, in the order met
        let mut shot = Vec::new();
        let mut shot_ledger = Vec::new();
        while shot.len() < cores.len() {
            let c = cores[shot.len()];
            let mut s = rule.start();
            s.shots_left = 1;
            s.target = c.target;
            s.exploded = c.exploded;
            let mut law = Vec::new();
            let mut ledgers = Vec::new();
            for (t, p) in run(s, shot_step.clone(), &mut paths)
                .map_err(too_many)?
                .iter()
            {
                let mv = Move {
                    to: id_of(core_of(t), &mut cores)?,
                    shots: 0,
                    hits: t.hits,
                    wounds: t.wounds,
                    unsaved: t.unsaved,
                    damage: t.damage,
                    flags: flags_of(t),
                };
                law.push((mv, p));
                ledgers.push(ledger_of(t));
            }
            shot.push(law);
            shot_ledger.push(ledgers);
        }
        let mut end = Vec::new();
        for c in &cores {
            for pinned in [false, true] {
                let mut s = rule.start();
                s.shots_left = 0;
                s.target = c.target;
                s.exploded = c.exploded;
                s.pinned = pinned;
                let settled = run(s, end_steps.clone(), &mut paths).map_err(too_many)?;
                let mut law: BTreeMap<u8, f64> = BTreeMap::new();
                for (t, p) in settled.iter() {
                    *law.entry(flags_of(t) & (PINNED_THROUGH | EVENTUALLY_OUT))
                        .or_insert(0.0) += p;
                }
                end.push(law.into_iter().collect::<Vec<_>>());
            }
        }
        Ok(ShotLaws {
            setup_draw: Draw::new(&setup),
            shot_draws: shot.iter().map(|l| Draw::new(l)).collect(),
            end_draws: end.iter().map(|l| Draw::new(l)).collect(),
            cores,
            setup,
            setup_ledger,
            shot,
            shot_ledger,
            end,
            paths,
        })
    }

    /// The state a trial ended in, for the rule's `record`.
    fn state(&self, rule: &ShotRule, core: u16, mv: &Move) -> ShotState {
        let c = self.cores[usize::from(core)];
        let mut s = rule.start();
        s.shots_left = 0;
        s.jams_left = 0;
        s.hits = mv.hits;
        s.wounds = mv.wounds;
        s.unsaved = mv.unsaved;
        s.damage = mv.damage;
        s.target = c.target;
        s.exploded = c.exploded;
        s.pinned = mv.flags & PINNED != 0;
        s.on_fire = mv.flags & ON_FIRE != 0;
        s.out_of_ammo = mv.flags & OUT_OF_AMMO != 0;
        s.firer_wounded = mv.flags & FIRER_WOUNDED != 0;
        s.pinned_through_turn = mv.flags & PINNED_THROUGH != 0;
        s.eventually_out = mv.flags & EVENTUALLY_OUT != 0;
        s
    }

    /// `trials` trials, each ending counted once and recorded per distinct
    /// ending when the chunk is done.
    pub fn run(&self, rule: &ShotRule, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let mut ends: foldhash::HashMap<u64, u64> = Default::default();
        for _ in 0..trials {
            let mut acc = self.setup_draw.draw(roller);
            let mut core = acc.to;
            for _ in 0..acc.shots {
                let m = self.shot_draws[usize::from(core)].draw(roller);
                core = m.to;
                acc.hits += m.hits;
                acc.wounds += m.wounds;
                acc.unsaved += m.unsaved;
                acc.damage += m.damage;
                acc.flags |= m.flags;
            }
            let pinned = usize::from(acc.flags & PINNED);
            acc.flags |= self.end_draws[2 * usize::from(core) + pinned].draw(roller);
            let key = u64::from(core)
                | u64::from(acc.hits) << 16
                | u64::from(acc.wounds) << 24
                | u64::from(acc.unsaved) << 32
                | u64::from(acc.damage) << 40
                | u64::from(acc.flags) << 56;
            *ends.entry(key).or_insert(0) += 1;
        }
        for (key, count) in ends {
            let mv = Move {
                to: key as u16,
                shots: 0,
                hits: (key >> 16) as u8,
                wounds: (key >> 24) as u8,
                unsaved: (key >> 32) as u8,
                damage: (key >> 40) as u16,
                flags: (key >> 56) as u8,
            };
            let s = self.state(rule, mv.to, &mv);
            rule.record(
                &s,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    /// The exact metric values: the set-up's law, then shot after shot
    /// from each core's law (states merged between shots), then the end's.
    /// One chain keeps the shots to go, the core, the hits and Pinning in
    /// its states and carries the ledger ([`super::ledger`]) as
    /// expectations: an amount's `E[x; state]`, a flag's
    /// `P(state, not yet raised)`. A second keeps the wound rolls passed
    /// for their family. States grow with hits and conditions, not with
    /// every count and flag at once.
    pub fn exact(&self, rule: &ShotRule) -> Result<Vec<f64>, NoExact> {
        #[derive(Clone, Copy, Default)]
        struct Mass {
            p: f64,
            ledger: [f64; LEDGER],
        }
        let mut work = self.paths;
        // (shots to go, core, hits, pinned)
        let mut layer: BTreeMap<(u8, u16, u8, bool), Mass> = BTreeMap::new();
        // (shots to go, core, wound rolls passed)
        let mut wounds: BTreeMap<(u8, u16, u8), f64> = BTreeMap::new();
        for ((m, p), l) in self.setup.iter().zip(&self.setup_ledger) {
            let mass = layer
                .entry((m.shots, m.to, 0, m.flags & PINNED != 0))
                .or_default();
            mass.p += p;
            for (i, acc) in mass.ledger.iter_mut().enumerate() {
                // from certainty: no amount yet, no flag raised
                let before = if LEDGER_FLAGS[i] { 1.0 } else { 0.0 };
                *acc += carried(i, *p, before, 1.0, l[i]);
            }
            *wounds.entry((m.shots, m.to, 0)).or_insert(0.0) += p;
        }
        let budget = |work: u64| {
            if work > EXACT_WORK {
                Err(NoExact::TooMuchWork { limit: EXACT_WORK })
            } else {
                Ok(())
            }
        };
        let mut finals: BTreeMap<(u16, u8, bool), Mass> = BTreeMap::new();
        while !layer.is_empty() {
            let mut next: BTreeMap<(u8, u16, u8, bool), Mass> = BTreeMap::new();
            for (&(shots, core, hits, pinned), mass) in &layer {
                if shots == 0 {
                    let f = finals.entry((core, hits, pinned)).or_default();
                    f.p += mass.p;
                    for (a, b) in f.ledger.iter_mut().zip(mass.ledger) {
                        *a += b;
                    }
                    continue;
                }
                let c = usize::from(core);
                work += self.shot[c].len() as u64;
                for ((m, q), l) in self.shot[c].iter().zip(&self.shot_ledger[c]) {
                    let key = (
                        shots - 1,
                        m.to,
                        hits + m.hits,
                        pinned || m.flags & PINNED != 0,
                    );
                    let to = next.entry(key).or_default();
                    to.p += mass.p * q;
                    for (i, acc) in to.ledger.iter_mut().enumerate() {
                        *acc += carried(i, *q, mass.ledger[i], mass.p, l[i]);
                    }
                }
            }
            budget(work)?;
            layer = next;
        }
        let mut wound_finals: BTreeMap<(u16, u8), f64> = BTreeMap::new();
        while !wounds.is_empty() {
            let mut next: BTreeMap<(u8, u16, u8), f64> = BTreeMap::new();
            for (&(shots, core, w), &p) in &wounds {
                if shots == 0 {
                    *wound_finals.entry((core, w)).or_insert(0.0) += p;
                    continue;
                }
                let law = &self.shot[usize::from(core)];
                work += law.len() as u64;
                for (m, q) in law {
                    *next.entry((shots - 1, m.to, w + m.wounds)).or_insert(0.0) += p * q;
                }
            }
            budget(work)?;
            wounds = next;
        }
        let mut e = Expectation::new(rule.metrics().len());
        let mut totals = [0.0; LEDGER];
        for (&(core, hits, pinned), mass) in &finals {
            for (i, t) in totals.iter_mut().enumerate() {
                *t += if LEDGER_FLAGS[i] {
                    mass.p - mass.ledger[i]
                } else {
                    mass.ledger[i]
                };
            }
            for (end, q) in &self.end[2 * usize::from(core) + usize::from(pinned)] {
                let mv = Move {
                    to: core,
                    hits,
                    flags: end | if pinned { PINNED } else { 0 },
                    ..Move::default()
                };
                e.set_weight(mass.p * q);
                rule.record_steered(&self.state(rule, core, &mv), &mut e);
            }
        }
        for (&(_, w), &p) in &wound_finals {
            e.set_weight(p);
            rule.record_wounds(w, &mut e);
        }
        for (metric, total) in rule.ledger_metrics().into_iter().zip(totals) {
            if let Some(metric) = metric {
                e.add_expected(metric, total);
            }
        }
        Ok(e.into_values())
    }
}

/// Ledger entry `i` after a draw of probability `q` adding `added`, from a
/// state of mass `p` carrying `carried`: an amount's expectation grows by
/// what the draw adds on all its mass; a flag's "not yet raised" mass
/// carries on only where the draw does not raise it.
fn carried(i: usize, q: f64, carried: f64, p: f64, added: u16) -> f64 {
    if LEDGER_FLAGS[i] {
        if added == 0 { q * carried } else { 0.0 }
    } else {
        q * (carried + p * f64::from(added))
    }
}
