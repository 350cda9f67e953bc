//! Healing: an optional Medicine check within the hour (1 wound + 1 per
//! Extra, non-lethal twice as effective, stabilising the Dying), then a
//! daily Body roll healing 1 wound until the character is at full Health.
//! A critical failure adds a wound, so the days form a birth-death chain
//! over wounds, solved exactly with the kernel's absorbing chain. The fast
//! sampler draws the days in blocks (four a word) from face tables of
//! each count of wounds ([`Blocks`]).

use super::rules::{
    DEAD_AT, NORMAL_DIFFICULTY, RollParams, SkillRoll, asset_list, distinct_assets,
    medicine_modifier, natural_healing_modifier,
};
use crate::dice::{
    AbsorbingChain, BatchedRoller, Expectation, Metric, MetricSink, Roller, Tally, Times,
};
use crate::engine::Sampler;
use crate::engine::faces::FaceTable;
use crate::engine::walk::DenseEnds;
use crate::systems::{
    MetricDecl, MetricDef, MetricKind, MetricList, Model, Opt, ParamError, ParamGroup, Params,
    TrialValues,
};
use crate::systems::{Refusal, Scenario};
use std::sync::OnceLock;

/// The `healing` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const HEALING_SCENARIO: Scenario = Scenario {
    name: "healing",
    about: "a Medicine check, then daily Body rolls until full Health: days to heal",
    seed_section: "Healing; Healing A Character; Healing A Dying Character; Healing Non-Lethal Damage; Natural Healing",
    params: HealingParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[("health", "10"), ("wounds", "4"), ("body", "1")],
        &[
            ("health", "6"),
            ("wounds", "7"),
            ("body", "0"),
            ("care", "self"),
            ("poor_conditions", "true"),
            ("healer_skill", "2"),
            ("self_treatment", "true"),
            ("nonlethal", "3"),
            ("critical_failure", "fail_by_step"),
        ],
    ],
    refusals: &[Refusal {
        what: "a dead patient to heal",
        point: 0,
        set: &[("health", "5"), ("wounds", "15")],
        unset: &[],
        field: "wounds",
        words: &["dead"],
    }],
    naive: crate::systems::crisis::naive::HEALING,
};

const HEALING: &str =
    "Healing; Healing A Character; Healing A Dying Character; Healing Non-Lethal Damage";
const NATURAL: &str = "Natural Healing";

/// What a critical failure on the daily Body roll is: the seed uses the
/// words without defining them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Critical {
    /// The dice show their lowest total (snake eyes on 2d6) and fail.
    LowestRoll,
    /// The total falls short of the difficulty by the Extras step or more
    /// (a failure's mirror of an Extra).
    FailByStep,
    /// Never.
    Never,
}

crate::param_struct! {
    /// Parameters of the healing scenario.
    pub struct HealingParams {
        ..roll: RollParams,
        health: i64 = int(1, 100)
            .required()
            .about("the patient's full Health")
            .seed("Wounds"),
        wounds: i64 = int(1, 109)
            .required()
            .about("lethal wounds to heal (Health 0 or less is Dying; -10 is dead)")
            .seed("Wounds"),
        body: i64 = int(-10, 30)
            .required()
            .about("the patient's Body: the daily natural-healing roll")
            .seed(NATURAL),
        care: String = choice(super::rules::CARE_WORDS)
            .default("none")
            .about("medical attention: none -2, self 0, doctor +1, hospital (a doctor in good condition) +2")
            .seed(NATURAL),
        rough_travel: bool = flag()
            .about("rough traveling: -2 on the daily roll")
            .seed(NATURAL),
        poor_conditions: bool = flag()
            .about("poor environmental conditions (intense cold, heat, rain): -2 on the daily roll")
            .seed(NATURAL),
        critical_failure: String = choice(&["lowest_roll", "fail_by_step", "never"])
            .default("lowest_roll")
            .about("what a critical failure of the daily roll is (it adds a wound; the seed does not say): the dice's lowest total, a total short of the DL by the Extras step or more, or never")
            .seed(NATURAL),
        healer_skill: Opt<i64> = int(-10, 30)
            .about("a Medicine check within the hour by a healer with this Medicine skill (absent: no check)")
            .seed(HEALING),
        self_treatment: bool = flag()
            .about("the patient treats himself: -2")
            .seed(HEALING),
        medical_assets: Opt<String> = text("bandages, splint")
            .about("healing aids, comma-separated by type: none -2, one 0, each further type +1")
            .seed(HEALING)
            .needs_any("healer_skill", "2"),
        nonlethal: i64 = int(0, 100)
            .default("0")
            .about("non-lethal wounds: the Medicine check heals them first, 2 per success and 2 per Extra")
            .seed("Healing Non-Lethal Damage"),
        days_shown: i64 = int(1, 60)
            .default("20")
            .about("days shown one by one in the distribution")
            .seed(NATURAL),
    }
}

/// Every metric of the healing scenario.
pub const METRICS: [MetricDecl; 8] = [
    MetricDecl::probability(
        "p_medicine_success",
        "P(Medicine check succeeds)",
        "P(the healer's Medicine check reaches DL 4)",
    ),
    MetricDecl::mean(
        "mean_healed_by_medicine",
        "mean wounds healed by Medicine",
        "expected lethal wounds the Medicine check heals (after the non-lethal ones)",
    ),
    MetricDecl::mean(
        "mean_nonlethal_healed",
        "mean non-lethal wounds healed by Medicine",
        "expected non-lethal wounds the Medicine check heals, 2 per success and per Extra",
    ),
    MetricDecl::probability(
        "p_stabilised",
        "P(stabilised)",
        "a Dying patient: P(the Medicine check succeeds, so it is not dying anymore)",
    ),
    MetricDecl::mean(
        "mean_days",
        "mean days until healed",
        "expected days of natural healing until no wound is left (or the patient dies)",
    ),
    MetricDecl::probability(
        "days={k}",
        "P(healing over after {k} days)",
        "P(full Health, or dead, after exactly k days)",
    ),
    MetricDecl::probability(
        "days>{k}",
        "P(still healing after {k} days)",
        "P(still wounded, or dead, after the last day shown)",
    ),
    MetricDecl::probability(
        "p_dies",
        "P(dies while healing)",
        "P(critical failures take the patient to Health -10)",
    ),
];

/// The healing of one patient.
struct Healing {
    roll: SkillRoll,
    health: i64,
    wounds: i64,
    nonlethal: i64,
    /// The healer's Medicine skill + modifiers, if a check is made.
    medicine: Option<i64>,
    /// Body + natural-healing modifiers.
    body: i64,
    critical: Critical,
    shown: usize,
    list: MetricList,
    m_success: Option<Metric>,
    m_healed: Option<Metric>,
    m_nonlethal: Option<Metric>,
    m_stabilised: Option<Metric>,
    m_days: Metric,
    m_day: Vec<Metric>,
    m_dies: Metric,
    /// The Medicine check's and one day's dice, laid out the first time
    /// the model samples (`None`: too many faces; real dice).
    tables: OnceLock<Option<Tables>>,
}

/// Face tables of the healing's two rolls ([`FaceTable`]): every face
/// combination played once through the rule's own code.
struct Tables {
    medicine: FaceTable<Option<Treated>>,
    /// A day's change in wounds (-1 healed, 0, +1 worse): added without a
    /// branch on which it was.
    day: FaceTable<i64>,
    /// Blocks of days drawn at once ([`Blocks`]; `None`: a day's dice do
    /// not fit, each day is a draw of `day`).
    blocks: Option<Blocks>,
}

/// The block sampler's name ([`Blocks`]).
const BLOCKS: &str = "blocks of days drawn at once (four a word) from face tables of each state";

/// Days a trial's ending is counted in a dense table for (longer ones
/// are hashed).
const DENSE_DAYS: usize = 256;

/// One day's Body roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Day {
    Heals,
    Nothing,
    Worse,
}

/// What the Medicine check did: (success, lethal healed, non-lethal healed).
type Treated = (bool, i64, i64);

/// Days a block of the block sampler plays from one word: two pairs of
/// days, each pair's dice one draw of [`Blocks::pairs`] combinations.
const BLOCK_DAYS: u32 = 4;

/// Sequences of a block's four days' changes (3^4).
const BLOCK_SEQS: usize = 81;

/// Sequences of a starting block's eight days (two words, 3^8).
const START_SEQS: usize = BLOCK_SEQS * BLOCK_SEQS;

/// Most faces one day's dice may show for a word to hold a block: four
/// days' dice, `faces^4 <= BATCH_LIMIT` (2d6: 36^4 = 1,679,616).
const MOST_DAY_FACES: u64 = 64;

/// A block's entry: the wounds it ends on (bits 0-7), the days it plays
/// (bits 8-11) and whether the walk ended in it (bit 15).
const ENDED: u16 = 1 << 15;

/// The block sampler's tables ([`Healing::blocks`]): a day's dice as a
/// face combination, two days' combinations together as one draw of
/// `faces^2`, looked up as the pair of changes the rule gives them; four
/// days (one word, two pairs) or eight (two words) played from a number
/// of wounds through the rule's own walk (heal, nothing or worse, stop at
/// full Health or death) into one entry. A trial is then one look-up from
/// its starting wounds (eight days) and, where it has not ended, one a
/// further four days, instead of a draw and a look-up a day.
struct Blocks {
    /// Combinations of two days' dice: `faces^2`.
    pairs: u64,
    /// `pair[a * faces + b]`: the changes of a day on combination `a` then
    /// one on `b`, as `3 * (change_a + 1) + (change_b + 1)`.
    pair: Vec<u8>,
    /// `state[w * 81 + s]`: four days of change sequence `s` (base-3
    /// digits, first day first) played from `w` wounds.
    state: Vec<u16>,
    /// `start[slot * 6561 + s]`: eight days played from the wounds of
    /// `slot` (a trial's starting wounds, [`Blocks::slot`]).
    start: Vec<u16>,
    /// The slot of each starting count of wounds (`u32::MAX`: none, the
    /// walk starts with four-day blocks).
    slot: Vec<u32>,
}

/// A roller reading dice from a face combination's digits (first die the
/// most significant), noting the sides asked for.
struct Digits {
    index: u64,
    /// What is left to divide: the product of the sides still to read.
    left: u64,
    sides: Vec<u32>,
}

impl Roller for Digits {
    fn roll(&mut self, sides: u32) -> u32 {
        self.sides.push(sides);
        let s = u64::from(sides);
        self.left = (self.left / s).max(1);
        (self.index / self.left % s) as u32 + 1
    }
}

impl Blocks {
    /// The change of each of one day's face combinations, played through
    /// the rule's own day; `None` where a day's dice differ from face to
    /// face (an exploding die) or show more than [`MOST_DAY_FACES`].
    fn day_faces(h: &Healing) -> Option<Vec<u8>> {
        let mut probe = Digits {
            index: 0,
            left: u64::MAX,
            sides: Vec::new(),
        };
        h.day_change(&mut probe);
        let sides = probe.sides;
        let faces = sides
            .iter()
            .try_fold(1u64, |n, &s| n.checked_mul(u64::from(s)))
            .filter(|&n| n <= MOST_DAY_FACES)?;
        (0..faces)
            .map(|index| {
                let mut d = Digits {
                    index,
                    left: faces,
                    sides: Vec::new(),
                };
                let change = h.day_change(&mut d);
                (d.sides == sides).then_some((change + 1) as u8)
            })
            .collect()
    }

    /// Plays the day changes `seq` (base-3 digits, `days` of them, first
    /// day first) from `wounds` as the rule's walk does.
    fn play(h: &Healing, wounds: i64, seq: usize, days: u32) -> u16 {
        let mut w = wounds;
        let mut played = 0u16;
        for d in (0..days).rev() {
            if w <= 0 || w >= h.dead_at() {
                break;
            }
            w += (seq / 3usize.pow(d) % 3) as i64 - 1;
            played += 1;
        }
        let ended = if w <= 0 || w >= h.dead_at() { ENDED } else { 0 };
        w.clamp(0, 255) as u16 | played << 8 | ended
    }

    /// The tables for `starts` (the wounds a trial may start from), or
    /// `None` where a day's dice do not fit ([`Blocks::day_faces`]).
    fn build(h: &Healing, starts: impl IntoIterator<Item = i64>) -> Option<Self> {
        let day = Self::day_faces(h)?;
        let faces = day.len();
        let pair = (0..faces * faces)
            .map(|i| 3 * day[i / faces] + day[i % faces])
            .collect();
        let dead = h.dead_at() as usize;
        let state = (0..dead * BLOCK_SEQS)
            .map(|i| Self::play(h, (i / BLOCK_SEQS) as i64, i % BLOCK_SEQS, BLOCK_DAYS))
            .collect();
        let mut slot = vec![u32::MAX; dead];
        let mut start = Vec::new();
        for w in starts {
            if w > 0 && w < h.dead_at() && slot[w as usize] == u32::MAX {
                slot[w as usize] = (start.len() / START_SEQS) as u32;
                start.extend((0..START_SEQS).map(|s| Self::play(h, w, s, 2 * BLOCK_DAYS)));
            }
        }
        Some(Blocks {
            pairs: (faces * faces) as u64,
            pair,
            state,
            start,
            slot,
        })
    }

    /// A word's four days: their change sequence (base 3, first day first).
    #[inline]
    fn seq(&self, word: u64) -> usize {
        let r = u128::from(word) * u128::from(self.pairs);
        let first = (r >> 64) as usize;
        let second = ((u128::from(r as u64) * u128::from(self.pairs)) >> 64) as usize;
        9 * usize::from(self.pair[first]) + usize::from(self.pair[second])
    }

    /// The days from `wounds` until healed or dead, and whether dead.
    #[inline]
    fn walk(&self, wounds: i64, roller: &mut BatchedRoller) -> (usize, bool) {
        if wounds <= 0 {
            return (0, false);
        }
        let w = wounds as usize;
        let mut e = match self.slot[w] {
            u32::MAX => self.state[w * BLOCK_SEQS + self.seq(roller.next_word())],
            slot => {
                let s = BLOCK_SEQS * self.seq(roller.next_word()) + self.seq(roller.next_word());
                self.start[slot as usize * START_SEQS + s]
            }
        };
        let mut days = usize::from(e >> 8 & 15);
        while e & ENDED == 0 {
            e = self.state[usize::from(e & 255) * BLOCK_SEQS + self.seq(roller.next_word())];
            days += usize::from(e >> 8 & 15);
        }
        (days, e & 255 != 0)
    }
}

impl Healing {
    /// Wounds at which the patient is dead.
    fn dead_at(&self) -> i64 {
        self.health - i64::from(DEAD_AT)
    }

    /// "If the Medicine check was successful, the patient recovers from 1
    /// wound, and an additional wound for each Extra"; non-lethal: "a
    /// succesful Medicine check heals 2 non-lethal wounds, and each Extra
    /// also heals 2". Reading: one check treats the non-lethal wounds first
    /// and what is left of it the lethal ones (two non-lethal per point).
    fn treat(&self, extras: Option<u32>) -> Treated {
        let Some(extras) = extras else {
            return (false, 0, 0);
        };
        let points = 1 + i64::from(extras);
        let nonlethal = (2 * points).min(self.nonlethal);
        let left = points - (nonlethal + 1) / 2;
        (true, left.min(self.wounds), nonlethal)
    }

    fn medicine<R: Roller>(&self, dice: &mut R) -> Option<Treated> {
        self.medicine.map(|skill| {
            let total = self.roll.dice(dice) + skill;
            self.treat(self.roll.extras(total, NORMAL_DIFFICULTY))
        })
    }

    fn day_of(&self, dice_total: i64) -> Day {
        let total = dice_total + self.body;
        if total >= NORMAL_DIFFICULTY {
            return Day::Heals;
        }
        let critical = match self.critical {
            Critical::LowestRoll => dice_total == self.roll.lowest(),
            Critical::FailByStep => total <= NORMAL_DIFFICULTY - self.roll.extras_step(),
            Critical::Never => false,
        };
        if critical { Day::Worse } else { Day::Nothing }
    }

    /// P(heals), P(worse) of one day.
    fn day_law(&self) -> (f64, f64) {
        let mut heal = 0.0;
        let mut worse = 0.0;
        for &(v, p) in self.roll.law() {
            match self.day_of(v) {
                Day::Heals => heal += p,
                Day::Worse => worse += p,
                Day::Nothing => {}
            }
        }
        (heal, worse)
    }

    fn record_treatment(&self, t: Option<Treated>, sink: &mut impl MetricSink) {
        let Some((success, healed, nonlethal)) = t else {
            return;
        };
        for (m, v) in [
            (self.m_success, u64::from(success)),
            (self.m_healed, healed as u64),
            (self.m_nonlethal, nonlethal as u64),
            (self.m_stabilised, u64::from(success)),
        ] {
            if let Some(m) = m {
                sink.record(m, v);
            }
        }
    }

    fn tables(&self) -> Option<&Tables> {
        self.tables
            .get_or_init(|| {
                let medicine = FaceTable::build(|d| self.medicine(d))?;
                let starts: Vec<i64> = medicine
                    .ends()
                    .iter()
                    .map(|t| self.wounds - t.map_or(0, |t| t.1))
                    .collect();
                Some(Tables {
                    day: FaceTable::build(|d| self.day_change(d))?,
                    blocks: Blocks::build(self, starts),
                    medicine,
                })
            })
            .as_ref()
    }

    /// A chunk with each roll's dice drawn at once from its face table
    /// (several rolls a word): the Medicine check, then day after day
    /// until healed or dead, each trial counted by (treatment, days, dies)
    /// and each ending recorded once, as trial by trial would.
    fn run_tables(&self, t: &Tables, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let treatments = t.medicine.ends().len();
        let mut ends: DenseEnds<(usize, usize, bool)> = DenseEnds::new(treatments * DENSE_DAYS * 2);
        let mut past: Vec<Option<Treated>> = Vec::new();
        let check = self.medicine.is_some();
        for _ in 0..trials {
            let drawn = if check {
                t.medicine.draw(roller, |d| self.medicine(d))
            } else {
                Ok(0)
            };
            let treated = match drawn {
                Ok(i) => i,
                Err(out) => {
                    // a check whose dice roll past its table: kept after
                    // the table's own endings
                    let at = past.iter().position(|p| *p == out).unwrap_or_else(|| {
                        past.push(out);
                        past.len() - 1
                    });
                    treatments + at
                }
            };
            let healed = self.treated(treated, t, &past).map_or(0, |t| t.1);
            let (days, dies) = match &t.blocks {
                Some(b) => b.walk(self.wounds - healed, roller),
                None => self.day_by_day(t, self.wounds - healed, roller),
            };
            let slot = (treated < treatments && days < DENSE_DAYS)
                .then(|| (treated * DENSE_DAYS + days) * 2 + usize::from(dies));
            ends.add(slot, (treated, days, dies));
        }
        for (&(treated, days, dies), count) in ends.ends() {
            let sink = &mut Times {
                tally: &mut *tally,
                count,
            };
            self.record_treatment(self.treated(treated, t, &past), sink);
            sink.record(self.m_days, days as u64);
            sink.record(self.m_day[days.min(self.shown + 1)], 1);
            sink.record(self.m_dies, u64::from(dies));
        }
        tally.add_trials(trials);
    }

    /// The days from `wounds` until healed or dead, and whether dead: each
    /// day a draw of the day's face table.
    fn day_by_day(&self, t: &Tables, mut wounds: i64, roller: &mut BatchedRoller) -> (usize, bool) {
        let mut days = 0usize;
        while wounds > 0 && wounds < self.dead_at() {
            wounds += match t.day.draw(roller, |d| self.day_change(d)) {
                Ok(i) => t.day.ends()[i],
                Err(change) => change,
            };
            days += 1;
        }
        (days, wounds > 0)
    }

    /// One day's roll as its change in wounds.
    fn day_change(&self, dice: &mut impl Roller) -> i64 {
        match self.day_of(self.roll.dice(dice)) {
            Day::Heals => -1,
            Day::Nothing => 0,
            Day::Worse => 1,
        }
    }

    /// The treatment counted as `i` by [`Healing::run_tables`].
    fn treated(&self, i: usize, t: &Tables, past: &[Option<Treated>]) -> Option<Treated> {
        match t.medicine.ends().get(i) {
            Some(out) => *out,
            None => past[i - t.medicine.ends().len()],
        }
    }

    fn trial(&self, dice: &mut impl Roller, sink: &mut impl MetricSink) {
        let treated = self.medicine(dice);
        self.record_treatment(treated, sink);
        let mut wounds = self.wounds - treated.map_or(0, |t| t.1);
        let mut days = 0usize;
        while wounds > 0 && wounds < self.dead_at() {
            let v = self.roll.dice(dice);
            match self.day_of(v) {
                Day::Heals => wounds -= 1,
                Day::Worse => wounds += 1,
                Day::Nothing => {}
            }
            days += 1;
        }
        sink.record(self.m_days, days as u64);
        sink.record(self.m_day[days.min(self.shown + 1)], 1);
        sink.record(self.m_dies, u64::from(wounds > 0));
    }
}

impl Model for Healing {
    fn metrics(&self) -> &[MetricDef] {
        self.list.defs()
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        if let Some(t) = self.tables() {
            return self.run_tables(t, roller, trials, tally);
        }
        self.run_reference(roller, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        match self.tables() {
            Some(Tables {
                blocks: Some(_), ..
            }) => Sampler::Custom(BLOCKS),
            Some(_) => Sampler::Custom("each roll's dice drawn at once from a face table"),
            None => Sampler::Reference,
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        for _ in 0..trials {
            self.trial(roller, tally);
            tally.finish_trial();
        }
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let mut e = Expectation::new(self.list.len());
        // the Medicine check's law, then the chain from each starting count
        let starts: Vec<(Option<Treated>, f64)> = match self.medicine {
            None => vec![(None, 1.0)],
            Some(skill) => self
                .roll
                .law()
                .iter()
                .map(|&(v, p)| {
                    let t = self.treat(self.roll.extras(v + skill, NORMAL_DIFFICULTY));
                    (Some(t), p)
                })
                .collect(),
        };
        // transient states: wounds 1 ..= dead_at - 1 (index w - 1);
        // absorbing: healed (0), dead (1)
        let n = (self.dead_at() - 1) as usize;
        let (heal, worse) = self.day_law();
        let stay = 1.0 - heal - worse;
        let mut q = vec![vec![0.0; n]; n];
        let mut r = vec![vec![0.0; 2]; n];
        for (i, (qi, ri)) in q.iter_mut().zip(r.iter_mut()).enumerate() {
            qi[i] = stay;
            if i == 0 {
                ri[0] = heal;
            } else {
                qi[i - 1] = heal;
            }
            if i + 1 == n {
                ri[1] = worse;
            } else {
                qi[i + 1] = worse;
            }
        }
        let chain = AbsorbingChain::new(q, r).ok()?;
        let absorbed = chain.absorption().ok()?;
        let mean_days = chain.expected_steps().ok()?;
        for (t, p) in starts {
            e.set_weight(p);
            self.record_treatment(t, &mut e);
            let wounds = self.wounds - t.map_or(0, |t| t.1);
            if wounds <= 0 {
                e.record(self.m_day[0], 1);
                continue;
            }
            let i = (wounds - 1) as usize;
            let dist = chain.steps_distribution(i, self.shown);
            for (k, d) in dist.iter().enumerate() {
                e.set_weight(p * d);
                e.record(self.m_day[k + 1], 1);
            }
            e.set_weight(p * (1.0 - dist.iter().sum::<f64>()).max(0.0));
            e.record(self.m_day[self.shown + 1], 1);
            e.set_weight(p * mean_days[i]);
            e.record(self.m_days, 1);
            e.set_weight(p * absorbed[i][1]);
            e.record(self.m_dies, 1);
        }
        let mut values = e.into_values();
        for (v, d) in values.iter_mut().zip(self.list.defs()) {
            if d.kind == MetricKind::Probability {
                *v = v.clamp(0.0, 1.0);
            }
        }
        Some(values)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.trial(roller, &mut TrialValues(values));
    }
}

/// Builds the healing scenario.
pub fn build(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = HealingParams::read(p)?;
    let roll = p.roll.skill_roll()?;
    let health = p.health;
    let wounds = p.wounds;
    let dead_at = health - i64::from(DEAD_AT);
    if wounds >= dead_at {
        return Err(ParamError::new(
            crate::param_name!(HealingParams.wounds),
            format!("{wounds} wounds take Health {health} to -10 or below: the patient is dead"),
        ));
    }
    let healer = p.healer_skill.value;
    let assets = asset_list(p.medical_assets.name(), p.medical_assets.value.clone())?;
    let self_treatment = p.self_treatment;
    if healer.is_none() && (self_treatment || p.medical_assets.value.is_some()) {
        let field = if self_treatment {
            crate::param_name!(HealingParams.self_treatment)
        } else {
            p.medical_assets.name()
        };
        return Err(ParamError::new(
            field,
            "only a Medicine check reads this: set healer_skill",
        ));
    }
    let medicine = healer.map(|s| s + medicine_modifier(self_treatment, distinct_assets(&assets)));
    let body = p.body + natural_healing_modifier(&p.care, p.rough_travel, p.poor_conditions);
    let critical = match p.critical_failure.as_str() {
        "fail_by_step" => Critical::FailByStep,
        "never" => Critical::Never,
        _ => Critical::LowestRoll,
    };
    let shown = p.days_shown as usize;
    let mut list = MetricList::new();
    let d = &METRICS;
    let m_success = medicine.map(|_| list.add(&d[0]));
    let m_healed = medicine.map(|_| list.add(&d[1]));
    let m_nonlethal = medicine
        .filter(|_| p.nonlethal > 0)
        .map(|_| list.add(&d[2]));
    let m_stabilised = medicine
        .filter(|_| wounds >= health)
        .map(|_| list.add(&d[3]));
    let m_days = list.add(&d[4]);
    let mut m_day = list.family(&d[5], 0..=shown);
    m_day.push(list.add_k(&d[6], shown));
    let m_dies = list.add(&d[7]);
    let healing = Healing {
        roll,
        health,
        wounds,
        nonlethal: p.nonlethal,
        medicine,
        body,
        critical,
        shown,
        list,
        m_success,
        m_healed,
        m_nonlethal,
        m_stabilised,
        m_days,
        m_day,
        m_dies,
        tables: OnceLock::new(),
    };
    if healing.day_law().0 <= 0.0 {
        return Err(ParamError::new(
            "body",
            format!(
                "the patient never heals: Body + modifiers {} never reaches DL 4 on the roll",
                healing.body
            ),
        ));
    }
    Ok(Box::new(healing))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::systems::testing::exact as value;

    fn model(pairs: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::testing::model(&super::super::RULES, "healing", pairs)
    }

    #[test]
    fn one_wound_heals_in_geometric_days() {
        // Body 2, hospital +2: 2d6 + 4 >= 4 always heals: 3 wounds in 3 days
        let m = model(&[
            ("health", "10"),
            ("wounds", "3"),
            ("body", "2"),
            ("care", "hospital"),
        ]);
        assert!((value(&*m, "mean_days") - 3.0).abs() < 1e-12);
        assert!((value(&*m, "days=3") - 1.0).abs() < 1e-12);
        // no care, Body 0, never critical: p = P(2d6 - 2 >= 4) = 26/36 per day
        let m = model(&[
            ("health", "10"),
            ("wounds", "1"),
            ("body", "0"),
            ("critical_failure", "never"),
        ]);
        assert!((value(&*m, "mean_days") - 36.0 / 26.0).abs() < 1e-12);
        assert_eq!(value(&*m, "p_dies"), 0.0);
    }

    #[test]
    fn medicine_heals_one_plus_extras_and_nonlethal_twice() {
        // healer 10 with one asset (0): 2d6 + 10 - 4 = Extras (2d6 + 6) / 4
        let m = model(&[
            ("health", "10"),
            ("wounds", "9"),
            ("body", "0"),
            ("healer_skill", "10"),
            ("medical_assets", "bandages"),
        ]);
        let mut expect = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                expect += (1 + (a + b + 6) / 4) as f64 / 36.0;
            }
        }
        assert!((value(&*m, "mean_healed_by_medicine") - expect).abs() < 1e-12);
        assert!((value(&*m, "p_medicine_success") - 1.0).abs() < 1e-12);
        // non-lethal first, 2 per point: healer 0 + 2 assets (+1) against 4,
        // 2d6 + 1 >= 4; Extras (2d6 - 3) / 4
        let m = model(&[
            ("health", "10"),
            ("wounds", "12"),
            ("body", "0"),
            ("healer_skill", "0"),
            ("medical_assets", "bandages, splint"),
            ("nonlethal", "40"),
        ]);
        let mut nl = 0.0;
        let mut ok = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                if a + b + 1 >= 4 {
                    ok += 1.0 / 36.0;
                    nl += (2 * (1 + (a + b - 3) / 4)) as f64 / 36.0;
                }
            }
        }
        assert!((value(&*m, "mean_nonlethal_healed") - nl).abs() < 1e-12);
        assert!((value(&*m, "p_stabilised") - ok).abs() < 1e-12);
        assert_eq!(value(&*m, "mean_healed_by_medicine"), 0.0);
    }

    /// The block sampler's tallies over `chunks` chunks of 65,536 trials
    /// at a fixed seed, with the metric names.
    fn blocks_tally(m: &dyn Model, seed: u64, chunks: u64) -> (Tally, Vec<String>) {
        assert_eq!(m.sampler(), Sampler::Custom(BLOCKS), "a day's dice fit");
        let names: Vec<String> = m.metrics().iter().map(|d| d.name.clone()).collect();
        let mut tally = Tally::new(names.len());
        for chunk in 0..chunks {
            let mut r = BatchedRoller::new(seed, &[chunk]);
            m.run_chunk(&mut r, 65_536, &mut tally);
        }
        assert_eq!(tally.trials(), chunks * 65_536);
        (tally, names)
    }

    /// C(n, k) as a float.
    fn choose(n: u64, k: u64) -> f64 {
        (0..k).map(|i| (n - i) as f64 / (i + 1) as f64).product()
    }

    /// The block sampler against laws worked out by hand, exact binomial
    /// tests at a fixed seed, Bonferroni over every check at a
    /// family-wise 1e-6.
    ///
    /// No care, Body 0, never critical: a day heals on 2d6 - 2 >= 4, 26 of
    /// 36 faces (p = 13/18, q = 5/18), else nothing. From w wounds the walk
    /// ends on day k with the w-th heal: C(k-1, w-1) p^w q^(k-w)
    /// (negative binomial); past day 12 with fewer than w heals in 12
    /// days. Days 9 and 12 end after the first block (eight days).
    ///
    /// The same with a Medicine check first by a healer of skill 0 with no
    /// aids (-2): 2d6 - 2 >= 4 on 26 of 36, 1 wound plus one per Extra
    /// (total - 4) / 4: 2d6 of 6-9 (20 of 36) heal 1, 10-12 (6 of 36) heal
    /// 2: 3 wounds start from 3 (10/36), 2 (20/36) or 1 (6/36).
    ///
    /// Health 1 with 10 wounds (dead at 11), Body 1, no care: a day heals
    /// on 2d6 >= 5 (30 of 36), worsens on snake eyes (1 of 36): dead on
    /// day 1 with 1/36; on day 2 with 5/36 * 1/36 (a day of nothing, then
    /// snake eyes; from 9 nothing ends a day); dies at all with the
    /// gambler's ruin of a walk stepping up 1 for 30 down:
    /// (30^10 - 1) / (30^11 - 1).
    #[test]
    fn the_blocks_give_the_laws_by_hand() {
        use crate::experiment::significance::binomial_exact_p;
        let (p, q): (f64, f64) = (13.0 / 18.0, 5.0 / 18.0);
        let nb = |w: u64, k: u64| {
            if k < w {
                0.0
            } else {
                choose(k - 1, w - 1) * p.powi(w as i32) * q.powi((k - w) as i32)
            }
        };
        let past = |w: u64, days: u64| -> f64 {
            (0..w)
                .map(|j| choose(days, j) * p.powi(j as i32) * q.powi((days - j) as i32))
                .sum()
        };
        let starts = [(3u64, 10.0 / 36.0), (2, 20.0 / 36.0), (1, 6.0 / 36.0)];
        let mixed = |k: u64| starts.iter().map(|&(w, s)| s * nb(w, k)).sum::<f64>();
        let mixed_past = starts.iter().map(|&(w, s)| s * past(w, 12)).sum::<f64>();
        let base = [
            ("health", "10"),
            ("wounds", "3"),
            ("body", "0"),
            ("critical_failure", "never"),
            ("days_shown", "12"),
        ];
        let mut medicine = base.to_vec();
        medicine.push(("healer_skill", "0"));
        type Case<'a> = (Vec<(&'a str, &'a str)>, Vec<(String, f64)>);
        let cases: Vec<Case> = vec![
            (
                base.to_vec(),
                [3, 4, 5, 8, 9, 12]
                    .iter()
                    .map(|&k| (format!("days={k}"), nb(3, k)))
                    .chain([("days>12".to_string(), past(3, 12))])
                    .chain([("p_dies".to_string(), 0.0)])
                    .collect(),
            ),
            (
                medicine,
                [1, 2, 3, 4, 9]
                    .iter()
                    .map(|&k| (format!("days={k}"), mixed(k)))
                    .chain([
                        ("days>12".to_string(), mixed_past),
                        ("p_medicine_success".to_string(), 26.0 / 36.0),
                    ])
                    .collect(),
            ),
            (
                vec![("health", "1"), ("wounds", "10"), ("body", "1")],
                vec![
                    ("days=1".to_string(), 1.0 / 36.0),
                    ("days=2".to_string(), 5.0 / 1296.0),
                    (
                        "p_dies".to_string(),
                        (30f64.powi(10) - 1.0) / (30f64.powi(11) - 1.0),
                    ),
                ],
            ),
        ];
        let checks: usize = cases.iter().map(|c| c.1.len()).sum();
        let alpha = 1e-6 / checks as f64;
        for (k, (pairs, want)) in cases.iter().enumerate() {
            let m = model(pairs);
            let (tally, names) = blocks_tally(&*m, 41 + k as u64, 5);
            let n = tally.trials();
            for (name, p) in want {
                let i = names.iter().position(|x| x == name).unwrap();
                let got = tally.sum(i);
                let pv = binomial_exact_p(got, n, *p);
                assert!(
                    pv > alpha,
                    "{pairs:?} {name}: {got} of {n} against {p}: p = {pv:e}"
                );
            }
        }
    }

    /// A hospital's patient with Body 2 heals every day (2d6 + 4 >= 4):
    /// 13 wounds take exactly 13 days in every trial, over the first
    /// block's eight days and two more blocks (four days, then one).
    #[test]
    fn the_blocks_count_every_day() {
        let m = model(&[
            ("health", "10"),
            ("wounds", "13"),
            ("body", "2"),
            ("care", "hospital"),
        ]);
        let (tally, names) = blocks_tally(&*m, 7, 2);
        let i = names.iter().position(|x| x == "mean_days").unwrap();
        assert_eq!(tally.sum(i), 13 * tally.trials());
        let dies = names.iter().position(|x| x == "p_dies").unwrap();
        assert_eq!(tally.sum(dies), 0);
    }

    /// 3d6 a day (216 faces) does not fit a block's word: each day is a
    /// draw of the day's face table. Body 0, no care, never critical, one
    /// wound: healed on day 1 on 3d6 - 2 >= 4, all but the 1 + 3 + 6 of
    /// 216 that total 3-5 (binomial at a fixed seed, 1e-6).
    #[test]
    fn dice_past_a_block_draw_day_by_day() {
        use crate::experiment::significance::binomial_exact_p;
        let m = model(&[
            ("health", "10"),
            ("wounds", "1"),
            ("body", "0"),
            ("critical_failure", "never"),
            ("roll", "3d6"),
        ]);
        assert_eq!(
            m.sampler(),
            Sampler::Custom("each roll's dice drawn at once from a face table")
        );
        let names: Vec<String> = m.metrics().iter().map(|d| d.name.clone()).collect();
        let mut tally = Tally::new(names.len());
        let mut r = BatchedRoller::new(5, &[0]);
        m.run_chunk(&mut r, 65_536, &mut tally);
        let i = names.iter().position(|x| x == "days=1").unwrap();
        let pv = binomial_exact_p(tally.sum(i), tally.trials(), 206.0 / 216.0);
        assert!(pv > 1e-6, "days=1: {} of 65536: p = {pv:e}", tally.sum(i));
    }
}
