//! Healing: an optional Medicine check within the hour (1 wound + 1 per
//! Extra, non-lethal twice as effective, stabilising the Dying), then a
//! daily Body roll healing 1 wound until the character is at full Health.
//! A critical failure adds a wound, so the days form a birth-death chain
//! over wounds, solved exactly with the kernel's absorbing chain.

use super::rules::{
    DEAD_AT, NORMAL_DIFFICULTY, SkillRoll, asset_list, distinct_assets, medicine_modifier,
    natural_healing_modifier,
};
use super::{roll_params, skill_roll};
use crate::dice::{
    AbsorbingChain, BatchedRoller, Expectation, Metric, MetricSink, Roller, Tally, Times,
};
use crate::engine::Sampler;
use crate::engine::faces::FaceTable;
use crate::engine::walk::DenseEnds;
use crate::systems::{
    MetricDecl, MetricDef, MetricKind, MetricList, Model, ParamDecl, ParamError, Params,
    TrialValues,
};
use std::sync::OnceLock;

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

/// Parameters of the healing scenario.
pub fn params() -> Vec<ParamDecl> {
    let mut p = roll_params();
    p.extend([
        ParamDecl::int("health", 1, 100)
            .required()
            .about("the patient's full Health")
            .seed("Wounds"),
        ParamDecl::int("wounds", 1, 109)
            .required()
            .about("lethal wounds to heal (Health 0 or less is Dying; -10 is dead)")
            .seed("Wounds"),
        ParamDecl::int("body", -10, 30)
            .required()
            .about("the patient's Body: the daily natural-healing roll")
            .seed(NATURAL),
        ParamDecl::choice("care", super::rules::CARE_WORDS)
            .default("none")
            .about("medical attention: none -2, self 0, doctor +1, hospital (a doctor in good condition) +2")
            .seed(NATURAL),
        ParamDecl::flag("rough_travel")
            .about("rough traveling: -2 on the daily roll")
            .seed(NATURAL),
        ParamDecl::flag("poor_conditions")
            .about("poor environmental conditions (intense cold, heat, rain): -2 on the daily roll")
            .seed(NATURAL),
        ParamDecl::choice("critical_failure", &["lowest_roll", "fail_by_step", "never"])
            .default("lowest_roll")
            .about("what a critical failure of the daily roll is (it adds a wound; the seed does not say): the dice's lowest total, a total short of the DL by the Extras step or more, or never")
            .seed(NATURAL),
        ParamDecl::int("healer_skill", -10, 30)
            .about("a Medicine check within the hour by a healer with this Medicine skill (absent: no check)")
            .seed(HEALING),
        ParamDecl::flag("self_treatment")
            .about("the patient treats himself: -2")
            .seed(HEALING),
        ParamDecl::text("medical_assets", "bandages, splint")
            .about("healing aids, comma-separated by type: none -2, one 0, each further type +1")
            .seed(HEALING)
            .needs_any("healer_skill", "2"),
        ParamDecl::int("nonlethal", 0, 100)
            .default("0")
            .about("non-lethal wounds: the Medicine check heals them first, 2 per success and 2 per Extra")
            .seed("Healing Non-Lethal Damage"),
        ParamDecl::int("days_shown", 1, 60)
            .default("20")
            .about("days shown one by one in the distribution")
            .seed(NATURAL),
    ]);
    p
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
}

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
                Some(Tables {
                    medicine: FaceTable::build(|d| self.medicine(d))?,
                    day: FaceTable::build(|d| self.day_change(d))?,
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
        for _ in 0..trials {
            let treated = match t.medicine.draw(roller, |d| self.medicine(d)) {
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
            let mut wounds = self.wounds - healed;
            let mut days = 0usize;
            while wounds > 0 && wounds < self.dead_at() {
                wounds += match t.day.draw(roller, |d| self.day_change(d)) {
                    Ok(i) => t.day.ends()[i],
                    Err(change) => change,
                };
                days += 1;
            }
            let dies = wounds > 0;
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
    let roll = skill_roll(p)?;
    let health = p.need_int("health")?;
    let wounds = p.need_int("wounds")?;
    let dead_at = health - i64::from(DEAD_AT);
    if wounds >= dead_at {
        return Err(ParamError::new(
            "wounds",
            format!("{wounds} wounds take Health {health} to -10 or below: the patient is dead"),
        ));
    }
    let healer = p.int("healer_skill")?;
    let assets = asset_list("medical_assets", p.word("medical_assets")?)?;
    let self_treatment = p.flag("self_treatment")?;
    if healer.is_none() && (self_treatment || p.has("medical_assets")) {
        let field = if self_treatment {
            "self_treatment"
        } else {
            "medical_assets"
        };
        return Err(ParamError::new(
            field,
            "only a Medicine check reads this: set healer_skill",
        ));
    }
    let medicine = healer.map(|s| s + medicine_modifier(self_treatment, distinct_assets(&assets)));
    let body = p.need_int("body")?
        + natural_healing_modifier(
            &p.need_word("care")?,
            p.flag("rough_travel")?,
            p.flag("poor_conditions")?,
        );
    let critical = match p.need_word("critical_failure")?.as_str() {
        "fail_by_step" => Critical::FailByStep,
        "never" => Critical::Never,
        _ => Critical::LowestRoll,
    };
    let shown = p.need_int("days_shown")? as usize;
    let mut list = MetricList::new();
    let d = &METRICS;
    let m_success = medicine.map(|_| list.add(&d[0]));
    let m_healed = medicine.map(|_| list.add(&d[1]));
    let m_nonlethal = medicine
        .filter(|_| p.need_int("nonlethal").is_ok_and(|n| n > 0))
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
        nonlethal: p.need_int("nonlethal")?,
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

    fn model(pairs: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::crisis::testing::model_of("healing", pairs)
    }

    use crate::systems::crisis::testing::value;

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
}
