//! One hit's damage: "Extras + DMG ± Circumstance" against the target's
//! armour (DR, Durability, armour-piercing), the 1 non-lethal wound of a
//! hit reduced to 0 or less, the non-lethal pool, Dying, dead and "more
//! than 12 wounds in one hit", on a target that may already be hurt.

use super::rules::{DEAD_AT, Defence, Difficulty, Intent, RollParams, SkillRoll, Target};
use crate::dice::{BatchedRoller, Metric, MetricSink, Roller, Tally, Times};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, Opt, ParamError, ParamGroup, Params, Sampler,
};
use crate::systems::{Refusal, Scenario};
use std::sync::Arc;

/// The `damage` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const DAMAGE_SCENARIO: Scenario = Scenario {
    name: "damage",
    about: "one hit's damage (DMG + Extras + circumstance) through DR and Durability: wounds, armour left, Dying, dead, knocked out",
    seed_section: "Damage; Dealing Damage; Damage Reduction; Non-lethal damage; Wounds; Lethal",
    params: DamageParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[
            ("skill", "3"),
            ("damage", "5"),
            ("target_health", "10"),
            ("armour_dr", "3"),
            ("armour_durability", "10"),
        ],
        &[
            ("skill", "6"),
            ("difficulty", "challenging"),
            ("damage", "12"),
            ("target_health", "8"),
            ("wounds_before", "3"),
            ("nonlethal_before", "2"),
            ("armour_dr", "4"),
            ("armour_durability", "2"),
            ("intent", "knock_out"),
        ],
        &[
            ("extras", "1"),
            ("damage", "2"),
            ("target_health", "3"),
            ("nonlethal_before", "3"),
            ("armour_dr", "4"),
            ("armour_durability", "9"),
        ],
        &[
            ("skill", "2"),
            ("roll", "1d20"),
            ("area", "true"),
            ("damage", "14"),
            ("damage_circumstance", "1"),
            ("target_health", "20"),
            ("armour_dr", "2"),
            ("armour_durability", "1"),
            ("armour_piercing", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "both fixed Extras and an attack roll",
            point: 0,
            set: &[("extras", "2")],
            unset: &[],
            field: "extras",
            words: &["not both"],
        },
        Refusal {
            what: "a target already dead",
            point: 0,
            set: &[("wounds_before", "30")],
            unset: &[],
            field: "wounds_before",
            words: &["dead already"],
        },
    ],
    naive: crate::systems::crisis::naive::DAMAGE,
};

const DAMAGE: &str = "Damage; Dealing Damage; Attacking and Damaging";
const ARMOUR: &str = "Damage Reduction";
const WOUNDS: &str = "Non-lethal damage; Wounds; Lethal";

/// Lethal wounds shown one by one; more are counted in a last row.
const WOUNDS_SHOWN: i32 = 20;

/// Least P(hit) the damage scenario takes: its sampler rolls attacks until
/// one hits, about 1 / P(hit) rolls a trial.
const MIN_P_HIT: f64 = 1e-4;

crate::param_struct! {
    /// Parameters of the damage scenario.
    pub struct DamageParams {
        ..roll: RollParams,
        skill: Opt<i64> = int(-10, 30)
            .about("the attacker's skill: the hit's Extras come from its attack roll, given that it hit (set this or extras)")
            .seed(DAMAGE),
        hit: i64 = int(-20, 20)
            .default("0")
            .about("the weapon's HIT, added to the attack roll")
            .seed("Making an Attack"),
        circumstance: i64 = int(-20, 20)
            .default("0")
            .about("circumstance modifier on the attack roll")
            .seed("Making an Attack"),
        difficulty: Difficulty = declared().default("4"),
        extras: Opt<i64> = int(0, 30)
            .about("a fixed number of Extras instead of an attack roll (the seed's example: 2)")
            .seed(DAMAGE)
            .needs_unset("skill"),
        area: bool = flag()
            .about("an Area of Effect weapon: 'does not receive extra damage from Extras'")
            .seed("Area of Effect"),
        damage: i64 = int(0, 100)
            .required()
            .about("the weapon's DMG")
            .seed(DAMAGE),
        damage_circumstance: i64 = int(-20, 20)
            .default("0")
            .about("circumstance modifier on damage")
            .seed(DAMAGE),
        armour_piercing: bool = flag()
            .about("the weapon or ammunition ignores the armour's DR")
            .seed(ARMOUR),
        armour_dr: i64 = int(0, 30)
            .default("0")
            .about("the target's armour DR")
            .seed(ARMOUR),
        armour_durability: i64 = int(0, 200)
            .default("0")
            .about("the armour's Durability left: blocked damage comes off it; at 0 it stops protecting")
            .seed(ARMOUR),
        target_health: i64 = int(1, 100)
            .required()
            .about("the target's full Health")
            .seed(WOUNDS),
        wounds_before: i64 = int(0, 109)
            .default("0")
            .about("lethal wounds the target has already taken (Health at or below 0 is Dying)")
            .seed(WOUNDS),
        nonlethal_before: i64 = int(0, 100)
            .default("0")
            .about("non-lethal wounds the target has already taken")
            .seed("Non-lethal damage"),
        intent: String = choice(Intent::WORDS)
            .default("kill")
            .about("kill, or knock_out: a hit that would kill is dealt as non-lethal force, knocking the target out instead")
            .seed("Lethal"),
    }
}

/// Every metric of the damage scenario.
pub const METRICS: [MetricDecl; 17] = [
    MetricDecl::mean(
        "mean_extras",
        "mean Extras",
        "expected Extras of the hit (the attack roll's, given that it hit, or the fixed number)",
    ),
    MetricDecl::mean(
        "mean_damage",
        "mean damage dealt (before armour)",
        "expected Extras + DMG ± circumstance (Extras not counted for area weapons; 0 if negative)",
    ),
    MetricDecl::mean(
        "mean_blocked",
        "mean damage blocked by the armour",
        "expected damage the armour's DR takes off, dealt to its Durability instead",
    ),
    MetricDecl::mean(
        "mean_wounds",
        "mean lethal wounds",
        "expected lethal wounds the hit deals",
    ),
    MetricDecl::probability(
        "wounds={k}",
        "P({k} lethal wounds)",
        "P(the hit deals exactly k lethal wounds)",
    ),
    MetricDecl::probability(
        "wounds>{k}",
        "P(more than {k} lethal wounds)",
        "P(more lethal wounds than the last row shown)",
    ),
    MetricDecl::probability(
        "p_nonlethal",
        "P(only 1 non-lethal wound)",
        "P(the damage is reduced to 0 or less: 'you still deal 1 non-lethal damage')",
    ),
    MetricDecl::mean(
        "mean_nonlethal",
        "mean non-lethal wounds dealt",
        "expected non-lethal wounds the hit deals (1 when reduced to 0 or less; all of a spared killing hit)",
    ),
    MetricDecl::mean(
        "mean_durability_left",
        "mean armour Durability left",
        "expected Durability of the armour after the hit",
    ),
    MetricDecl::probability(
        "durability_left={k}",
        "P(armour Durability {k} left)",
        "P(the armour has exactly k Durability left after the hit)",
    ),
    MetricDecl::probability(
        "p_armour_spent",
        "P(armour spent)",
        "P(the armour's Durability is 0 after the hit: 'it does not provide DR anymore')",
    ),
    MetricDecl::probability(
        "p_incapacitated",
        "P(incapacitated)",
        "P(dying, dead, knocked out by non-lethal wounds or hit by more than 12 wounds at once, after the hit)",
    ),
    MetricDecl::probability(
        "p_dying",
        "P(dying)",
        "P(Health 0 or less, above -10, after the hit)",
    ),
    MetricDecl::probability(
        "p_dead",
        "P(dead)",
        "P(Health -10 after the hit: 'the creature immediately dies')",
    ),
    MetricDecl::probability(
        "p_knocked_out",
        "P(knocked out by non-lethal wounds)",
        "P(Health above 0, non-lethal wounds higher than Health, no hit of more than 12 wounds)",
    ),
    MetricDecl::probability(
        "p_overwhelmed",
        "P(more than 12 wounds in one hit)",
        "P(Health above 0 but incapacitated by more than 12 wounds in this hit)",
    ),
    MetricDecl::probability(
        "p_spared",
        "P(knocked out instead of killed)",
        "knock-out intent: P(the hit would have killed and was dealt as non-lethal force)",
    ),
];

/// One hit on a target.
struct Damage {
    /// The Extras' law given a hit, each count once (a fixed count: one
    /// entry of probability 1).
    extras_law: Arc<[(u32, f64)]>,
    /// The attack roll, when the Extras come from it.
    attack: Option<(SkillRoll, i64, i64)>,
    area: bool,
    damage: i32,
    armour_piercing: bool,
    defence: Defence,
    before: Target,
    intent: Intent,
    list: MetricList,
    m: [Metric; 13],
    wounds: Vec<Metric>,
    durability: Vec<Metric>,
    spared: Option<Metric>,
}

/// After the hit: the target, what the hit did (lethal, non-lethal,
/// blocked) and its Extras.
type AfterHit = (Target, [i32; 3], u32);

impl Damage {
    /// The hit's Extras: the sampler rolls attacks until one hits (the
    /// hit's Extras given that it hit), the exact evaluator branches on
    /// their law given a hit.
    fn extras<R: Roller>(&self, dice: &mut R) -> u32 {
        dice.known(
            || self.extras_law.clone(),
            |d| match &self.attack {
                None => self.extras_law[0].0,
                Some((roll, bonus, dl)) => loop {
                    if let Some(e) = roll.extras(roll.dice(d) + bonus, *dl) {
                        break e;
                    }
                },
            },
        )
    }
}

impl Mechanic for Damage {
    type State = AfterHit;

    fn start(&self) -> AfterHit {
        (self.before, [0; 3], 0)
    }

    fn steps(&self) -> usize {
        1
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut AfterHit) {
        let extras = self.extras(dice);
        self.hit(extras, s);
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, state: &AfterHit, sink: &mut impl MetricSink) {
        self.record_hit(state, sink);
    }
}

impl Damage {
    /// The hit with `extras` Extras.
    fn hit(&self, extras: u32, s: &mut AfterHit) {
        // "Extras + DMG ± Circumstance"; "An Area of Effect weapon does not
        // receive extra damage from Extras"
        let bonus = if self.area { 0 } else { extras as i32 };
        let hit = s.0.take_with_intent(
            self.damage + bonus,
            self.defence,
            self.armour_piercing,
            self.intent,
        );
        s.1 = [hit.wounds, hit.nonlethal, hit.blocked];
        s.2 = extras;
    }

    fn record_hit(
        &self,
        (t, [wounds, nonlethal, blocked], extras): &AfterHit,
        sink: &mut impl MetricSink,
    ) {
        let [
            mean_extras,
            mean_damage,
            mean_blocked,
            mean_wounds,
            p_nonlethal,
            mean_durability,
            spent,
            incap,
            dying,
            dead,
            ko,
            overwhelmed,
            mean_nonlethal,
        ] = self.m;
        let bonus = if self.area { 0 } else { *extras as i32 };
        sink.record(mean_extras, u64::from(*extras));
        sink.record(mean_damage, (self.damage + bonus).max(0) as u64);
        sink.record(mean_blocked, *blocked as u64);
        sink.record(mean_wounds, *wounds as u64);
        sink.record(self.wounds[(*wounds).min(WOUNDS_SHOWN + 1) as usize], 1);
        // a spared killing hit deals its wounds non-lethally, not the 1
        let reduced = *wounds == 0 && !t.spared;
        sink.record(p_nonlethal, u64::from(reduced));
        sink.record(mean_nonlethal, *nonlethal as u64);
        sink.record(mean_durability, t.durability as u64);
        sink.record(
            self.durability[(self.before.durability - t.durability) as usize],
            1,
        );
        sink.record(spent, u64::from(t.durability == 0));
        sink.record(incap, u64::from(t.incapacitated()));
        sink.record(dying, u64::from(t.dying()));
        sink.record(dead, u64::from(t.dead()));
        sink.record(
            ko,
            u64::from(t.health > 0 && !t.overwhelmed && t.knocked_out()),
        );
        sink.record(overwhelmed, u64::from(t.health > 0 && t.overwhelmed));
        if let Some(m) = self.spared {
            sink.record(m, u64::from(t.spared));
        }
    }
}

/// The damage scenario's model: where the attack's dice fit the engine's
/// face table (it misses rarely enough that few trials roll again), a trial
/// is one draw of its dice there; otherwise the sampler draws only each
/// trial's Extras (the same dice as the step) and counts them, then plays
/// and records the hit once per Extras count: the same tally as trial by
/// trial, several times faster.
struct DamageModel(StepModel<Damage>);

impl Model for DamageModel {
    fn metrics(&self) -> &[MetricDef] {
        self.0.metrics()
    }

    fn plan(&self, trials: u64) {
        self.0.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        // an attack that hits on its first roll but rarely: its dice are
        // the engine's face table, a trial one draw (several a word)
        if self.0.sampler() == Sampler::FaceTable && !super::counted::counted_only() {
            return self.0.run_chunk(roller, trials, tally);
        }
        let hit = self.0.mechanic();
        let most = hit.extras_law.iter().map(|(e, _)| *e).max().unwrap_or(0);
        let mut counts = vec![0u64; most as usize + 1];
        for _ in 0..trials {
            counts[hit.extras(roller) as usize] += 1;
        }
        for (extras, &count) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
            let mut s = hit.start();
            hit.hit(extras as u32, &mut s);
            hit.record_hit(
                &s,
                &mut Times {
                    tally: &mut *tally,
                    count,
                },
            );
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        match self.0.sampler() {
            Sampler::FaceTable => Sampler::FaceTable,
            _ => Sampler::Custom("Extras counted, each count played once"),
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.0.run_trials(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.0.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.0.sample_one(roller, values);
    }
}

/// Builds the damage scenario.
pub fn build(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = DamageParams::read(p)?;
    let skill = p.skill.value;
    let fixed = p.extras.value;
    let (extras_law, attack): (Vec<(u32, f64)>, _) = match (skill, fixed) {
        (Some(_), Some(_)) => {
            return Err(ParamError::new(
                p.extras.name(),
                "set either extras (a fixed number) or skill (Extras from the attack roll), not both",
            ));
        }
        (None, None) => {
            return Err(ParamError::missing(
                p.skill.name(),
                "missing: set skill (the hit's Extras come from the attack roll) or extras (a fixed number)",
            ));
        }
        (None, Some(e)) => {
            // the roll's parameters still have to be valid
            p.roll.skill_roll()?;
            (vec![(e as u32, 1.0)], None)
        }
        (Some(skill), None) => {
            let roll = p.roll.skill_roll()?;
            let bonus = skill + p.hit + p.circumstance;
            let Difficulty(dl) = p.difficulty;
            let p_hit = roll.p_success(bonus, dl);
            if p_hit <= 0.0 {
                return Err(ParamError::new(
                    p.skill.name(),
                    format!(
                        "the attack can never hit: the roll plus {bonus} never reaches DL {dl}, so there is no hit to deal damage"
                    ),
                ));
            }
            if p_hit < MIN_P_HIT {
                return Err(ParamError::new(
                    p.skill.name(),
                    format!(
                        "the attack hits with P = {p_hit:.1e}, too rarely for the sampler to roll attacks until one hits: set extras (a fixed number) instead"
                    ),
                ));
            }
            let mut law: Vec<(u32, f64)> = Vec::new();
            for &(v, q) in roll.law() {
                if let Some(e) = roll.extras(v + bonus, dl) {
                    match law.iter_mut().find(|(k, _)| *k == e) {
                        Some((_, w)) => *w += q / p_hit,
                        None => law.push((e, q / p_hit)),
                    }
                }
            }
            (law, Some((roll, bonus, dl)))
        }
    };
    let health = p.target_health as i32;
    let wounds_before = p.wounds_before as i32;
    let nonlethal_before = p.nonlethal_before as i32;
    if health - wounds_before <= DEAD_AT {
        return Err(ParamError::new(
            crate::param_name!(DamageParams.wounds_before),
            format!(
                "{wounds_before} wounds take Health {health} to {} or below: the target is dead already",
                DEAD_AT
            ),
        ));
    }
    if nonlethal_before > health {
        return Err(ParamError::new(
            crate::param_name!(DamageParams.nonlethal_before),
            format!(
                "{nonlethal_before} non-lethal wounds are more than the full Health {health}: count at most {health} (more changes nothing)"
            ),
        ));
    }
    let durability = p.armour_durability as i32;
    let dr = p.armour_dr as i32;
    let intent = Intent::parse(&p.intent);
    let before = Target::fresh(health, durability).hurt(wounds_before, nonlethal_before);
    let mut list = MetricList::new();
    let [
        mean_extras,
        mean_damage,
        mean_blocked,
        mean_wounds,
        wounds_k,
        wounds_beyond,
        p_nonlethal,
        mean_nonlethal,
        mean_durability,
        durability_k,
        spent,
        incap,
        dying,
        dead,
        ko,
        overwhelmed,
        spared,
    ] = &METRICS;
    let mean_extras = list.add(mean_extras);
    let mean_damage = list.add(mean_damage);
    let mean_blocked = list.add(mean_blocked);
    let mean_wounds = list.add(mean_wounds);
    let mut wounds = list.family(wounds_k, 0..=WOUNDS_SHOWN);
    wounds.push(list.add_k(wounds_beyond, WOUNDS_SHOWN));
    let p_nonlethal = list.add(p_nonlethal);
    let mean_nonlethal = list.add(mean_nonlethal);
    let mean_durability = list.add(mean_durability);
    // Durability left after one hit: from full down to full - DR (or 0)
    let armour_piercing = p.armour_piercing;
    let most_blocked = if armour_piercing {
        0
    } else {
        dr.min(durability)
    };
    let durability_metrics: Vec<Metric> = (0..=most_blocked)
        .map(|b| list.add_k(durability_k, durability - b))
        .collect();
    let m = [
        mean_extras,
        mean_damage,
        mean_blocked,
        mean_wounds,
        p_nonlethal,
        mean_durability,
        list.add(spent),
        list.add(incap),
        list.add(dying),
        list.add(dead),
        list.add(ko),
        list.add(overwhelmed),
        mean_nonlethal,
    ];
    let spared = (intent == Intent::KnockOut).then(|| list.add(spared));
    Ok(Box::new(DamageModel(StepModel::new(Damage {
        extras_law: extras_law.into(),
        attack,
        area: p.area,
        damage: (p.damage + p.damage_circumstance) as i32,
        armour_piercing,
        defence: Defence { health, dr },
        before,
        intent,
        list,
        m,
        wounds,
        durability: durability_metrics,
        spared,
    }))))
}

#[cfg(test)]
mod tests {
    use crate::systems::Model;
    use crate::systems::testing::exact as value;
    use crate::systems::{ParamValue, Params};

    fn model(pairs: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::testing::model(&super::super::RULES, "damage", pairs)
    }

    fn is(m: &dyn Model, name: &str, want: f64) {
        let got = value(m, name);
        assert!((got - want).abs() < 1e-12, "{name} = {got}, not {want}");
    }

    #[test]
    fn the_counted_sampler_tallies_what_trial_by_trial_sampling_does() {
        // the counted path, which scenarios whose dice do not fit a face
        // table take (the face table itself is held to the exact values
        // and the reference sampler by the conformance suite)
        crate::systems::crisis::counted::COUNTED_ONLY.with(|c| c.set(true));
        use crate::dice::{BatchedRoller, Metric, MetricSink, Tally};
        for pairs in [
            &[
                ("skill", "3"),
                ("damage", "5"),
                ("target_health", "10"),
                ("armour_dr", "3"),
                ("armour_durability", "10"),
            ][..],
            &[
                ("skill", "-2"),
                ("roll", "3d6"),
                ("difficulty", "hard"),
                ("damage", "9"),
                ("target_health", "4"),
                ("intent", "knock_out"),
            ][..],
        ] {
            let m = model(pairs);
            let n = m.metrics().len();
            let mut counted = Tally::new(n);
            m.run_chunk(&mut BatchedRoller::new(4, &[2]), 5_000, &mut counted);
            let mut one_by_one = Tally::new(n);
            let mut roller = BatchedRoller::new(4, &[2]);
            for _ in 0..5_000 {
                let mut values = vec![0; n];
                m.sample_one(&mut roller, &mut values);
                for (i, v) in values.into_iter().enumerate() {
                    one_by_one.record(Metric::at(i), v);
                }
                one_by_one.finish_trial();
            }
            assert_eq!(counted, one_by_one, "{pairs:?}");
        }
    }

    #[test]
    fn worked_example_armour_blocks_three_of_five_damage() {
        // "A target wears an armor with a physical DR of 3, and a durability
        // of 10. He receives 5 physical damage. The armor blocks 3 of the 5
        // incoming damage. The durability of armor is reduced to 7, and the
        // target only receives 2 points of damage."
        let m = model(&[
            ("extras", "0"),
            ("damage", "5"),
            ("target_health", "10"),
            ("armour_dr", "3"),
            ("armour_durability", "10"),
        ]);
        is(&*m, "mean_blocked", 3.0);
        is(&*m, "durability_left=7", 1.0);
        is(&*m, "wounds=2", 1.0);
        is(&*m, "mean_nonlethal", 0.0);
        is(&*m, "p_incapacitated", 0.0);
    }

    #[test]
    fn worked_example_a_thirteen_adds_two_damage() {
        // "His roll results in a 13. This nets him 2 Extras. Whatever weapon
        // the attacker uses, he gains 2 extra damage." A roll that always
        // shows 13 against the ranged DL 4, a 3-damage weapon: 5 damage,
        // which the armour of the other example turns into 2 wounds.
        let m = model(&[
            ("roll", "13"),
            ("skill", "0"),
            ("damage", "3"),
            ("target_health", "10"),
            ("armour_dr", "3"),
            ("armour_durability", "10"),
        ]);
        is(&*m, "mean_extras", 2.0);
        is(&*m, "mean_damage", 5.0);
        is(&*m, "durability_left=7", 1.0);
        is(&*m, "wounds=2", 1.0);
        // an area weapon gains nothing from them
        let m = model(&[
            ("roll", "13"),
            ("skill", "0"),
            ("area", "true"),
            ("damage", "3"),
            ("target_health", "10"),
        ]);
        is(&*m, "mean_extras", 2.0);
        is(&*m, "wounds=3", 1.0);
    }

    #[test]
    fn extras_are_those_of_a_hit() {
        // 2d6 against Challenging (8), by name: 15/36 hit; 2d6 = 12 is the
        // one Extra (1/36), so E[Extras | hit] = 1/15
        let m = model(&[
            ("skill", "0"),
            ("difficulty", "Challenging"),
            ("damage", "4"),
            ("target_health", "10"),
        ]);
        is(&*m, "mean_extras", 1.0 / 15.0);
        is(&*m, "wounds=5", 1.0 / 15.0);
        is(&*m, "wounds=4", 14.0 / 15.0);
    }

    #[test]
    fn reduced_to_nothing_spent_armour_and_piercing() {
        // 2 damage into DR 4: all blocked, 1 non-lethal wound; Durability 1
        // blocks only 1, then the armour is spent
        let m = model(&[
            ("extras", "0"),
            ("damage", "2"),
            ("target_health", "5"),
            ("armour_dr", "4"),
            ("armour_durability", "9"),
        ]);
        is(&*m, "p_nonlethal", 1.0);
        is(&*m, "mean_nonlethal", 1.0);
        is(&*m, "wounds=0", 1.0);
        is(&*m, "durability_left=7", 1.0);
        let m = model(&[
            ("extras", "0"),
            ("damage", "2"),
            ("target_health", "5"),
            ("armour_dr", "4"),
            ("armour_durability", "1"),
        ]);
        is(&*m, "wounds=1", 1.0);
        is(&*m, "p_armour_spent", 1.0);
        let m = model(&[
            ("extras", "0"),
            ("damage", "2"),
            ("target_health", "5"),
            ("armour_dr", "4"),
            ("armour_durability", "9"),
            ("armour_piercing", "true"),
        ]);
        is(&*m, "wounds=2", 1.0);
        is(&*m, "durability_left=9", 1.0);
    }

    #[test]
    fn dying_dead_knocked_out_and_overwhelmed() {
        let out = |pairs: &[(&str, &str)]| {
            let base = [("extras", "0"), ("target_health", "10")];
            let m = model(&[&base[..], pairs].concat());
            [
                "p_dying",
                "p_dead",
                "p_knocked_out",
                "p_overwhelmed",
                "p_incapacitated",
            ]
            .map(|n| value(&*m, n))
        };
        // 10 wounds: Health 0, Dying
        assert_eq!(out(&[("damage", "10")]), [1.0, 0.0, 0.0, 0.0, 1.0]);
        // 13 wounds: more than 12 in one hit, Health -3: Dying (first)
        assert_eq!(out(&[("damage", "13")]), [1.0, 0.0, 0.0, 0.0, 1.0]);
        // 20 wounds: Health -10, dead
        assert_eq!(out(&[("damage", "20")]), [0.0, 1.0, 0.0, 0.0, 1.0]);
        // 13 wounds on Health 30: only overwhelmed
        assert_eq!(
            out(&[("damage", "13"), ("target_health", "30")]),
            [0.0, 0.0, 0.0, 1.0, 1.0]
        );
        // 12 wounds on Health 30: still standing
        assert_eq!(out(&[("damage", "12"), ("target_health", "30")]), [0.0; 5]);
        // non-lethal above current Health: 4 wounds down to Health 6, then
        // a hit reduced to nothing makes the non-lethal 7
        assert_eq!(
            out(&[
                ("damage", "1"),
                ("armour_dr", "2"),
                ("armour_durability", "5"),
                ("wounds_before", "4"),
                ("nonlethal_before", "6"),
            ]),
            [0.0, 0.0, 1.0, 0.0, 1.0]
        );
    }

    #[test]
    fn knocking_out_instead_of_killing() {
        // a Dying target (Health -5) hit for 6 would die; with non-lethal
        // force it is knocked out instead and keeps its Health
        let base = [
            ("extras", "0"),
            ("damage", "6"),
            ("target_health", "10"),
            ("wounds_before", "15"),
        ];
        let m = model(&base);
        is(&*m, "p_dead", 1.0);
        let m = model(&[&base[..], &[("intent", "knock_out")]].concat());
        is(&*m, "p_dead", 0.0);
        is(&*m, "p_spared", 1.0);
        is(&*m, "p_dying", 1.0);
        is(&*m, "mean_nonlethal", 6.0);
        is(&*m, "wounds=0", 1.0);
        is(&*m, "p_nonlethal", 0.0);
        // a hit that does not kill stays lethal
        let m = model(&[
            ("extras", "0"),
            ("damage", "5"),
            ("target_health", "10"),
            ("intent", "knock_out"),
        ]);
        is(&*m, "p_spared", 0.0);
        is(&*m, "wounds=5", 1.0);
    }

    #[test]
    fn bad_parameters_are_named() {
        let err = |pairs: &[(&str, &str)]| {
            let mut p = Params::new();
            for (k, v) in pairs {
                p.set(*k, ParamValue::from_text(v));
            }
            crate::systems::crisis::RULES
                .build("damage", &p, &Params::new())
                .err()
                .unwrap()
        };
        let base = [("damage", "5"), ("target_health", "10")];
        assert_eq!(err(&base).field, "skill");
        let e = err(&[&base[..], &[("skill", "1"), ("extras", "2")]].concat());
        assert_eq!(e.field, "extras");
        let e = err(&[&base[..], &[("skill", "-5"), ("difficulty", "impossible")]].concat());
        assert_eq!(e.field, "skill");
        assert!(e.message.contains("never hit"), "{e}");
        let e = err(&[&base[..], &[("extras", "1"), ("wounds_before", "20")]].concat());
        assert_eq!(e.field, "wounds_before");
        let e = err(&[&base[..], &[("skill", "1"), ("difficulty", "hrad")]].concat());
        assert_eq!(e.field, "difficulty");
        assert!(e.message.contains("did you mean 'hard'"), "{e}");
    }
}
