//! A vehicle after k penetrating hits on the Vehicle Damage Table (1D10):
//! "If the damage has already been suffered, then take the next up, keep
//! going up". The state after each hit depends only on the state before
//! it, so the hits are a Markov chain; the exact evaluator walks it hit by
//! hit, merging equal states, passengers counted by wounds, not one by one.
//!
//! The `vehicle_damage` scenario is here too, beside the rule it builds,
//! and the `no_minor_gun` variant's reading, which every scenario with a
//! vehicle in it takes.

use super::chart::Effect;
use super::chart::{VehicleResult, effect_of_hit};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::Mechanic;
use crate::systems::Variant;
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `vehicle_damage` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const VEHICLE_DAMAGE_SCENARIO: Scenario = Scenario {
    name: "vehicle_damage",
    about: "a vehicle after k penetrating hits (take the next one up), and its passengers",
    seed_section: "Vehicle Damage Table 1D10; Vehicle characteristics table; EFFECT OF HIT CHART",
    params: VehicleParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &["no_minor_gun"],
    test_points: &[
        &[("vehicle", "chimera"), ("hits", "3"), ("passengers", "4")],
        &[("vehicle", "sentinel"), ("hits", "5")],
    ],
    refusals: &[
        Refusal {
            what: "a vehicle misspelt",
            point: 0,
            set: &[("vehicle", "chimaera")],
            unset: &[],
            field: "vehicle",
            words: &["did you mean 'chimera'"],
        },
        Refusal {
            what: "passengers in a Sentinel walker",
            point: 0,
            set: &[("vehicle", "sentinel")],
            unset: &[],
            field: "passengers",
            words: &["All passengers (if APC)"],
        },
    ],
    naive: crate::systems::skirmish20::naive::VEHICLE_DAMAGE,
};

/// Largest [`exact_size`] evaluated exactly. The exact chain's work grows
/// about linearly in the hits (the states saturate) and steeply in the
/// passengers (their healthy, wounded and dead counts, and those at the
/// hit, over one step a passenger): 3 hits with 12 passengers took 0.19 s
/// on one core of the development machine and 20 hits with 12 passengers
/// passed `EXACT_WORK` after 1.4 s, so 12 hits with 12 passengers (about
/// 0.8 s) is the most this allows; the engine's work count still stops
/// any evaluation that passes `EXACT_WORK`.
pub const EXACT_SIZE: u64 = 12 * 13 * 13 * 13;

/// The size of the exact evaluation of `hits` on a vehicle carrying
/// `passengers`, as [`EXACT_SIZE`] bounds it.
pub fn exact_size(hits: u32, passengers: u8) -> u64 {
    u64::from(hits) * (u64::from(passengers) + 1).pow(3)
}

crate::variant_enum! {
    /// How a 5 ("A minor Gun taken out permanently- No other effect (if there
    /// is a minor gun)") reads on a vehicle that never had a minor gun. A
    /// vehicle that had minor guns and lost them all has "already suffered"
    /// the damage and takes the next up under either reading.
    pub enum NoMinorGun = "no_minor_gun" {
        /// "(if there is a minor gun)": no effect at all (the default).
        NoEffect = "no_effect",
        /// Counted as damage already suffered: take the next one up.
        NextUp = "next_up",
    }
    about: "a 5 on the Vehicle Damage Table on a vehicle that never had a minor gun: no effect (default: \"(if there is a minor gun)\"), or damage already suffered, take the next one up; a vehicle that lost its minor guns takes the next one up either way",
}

/// The vehicle and its passengers.
#[derive(Clone, Debug)]
pub struct VehicleDamage {
    /// Penetrating hits.
    pub hits: u32,
    /// Minor guns besides the biggest gun (a Chimera's heavy bolter: 1).
    pub minor_guns: u8,
    /// Passengers (common troopers) aboard.
    pub passengers: u8,
    /// The reading of a 5 on a vehicle that never had a minor gun.
    pub no_minor_gun: NoMinorGun,
}

/// The vehicle so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VehicleState {
    minor_guns_out: u8,
    biggest_gun_out: bool,
    immobilised: bool,
    guns_destroyed: bool,
    burns: bool,
    explodes: bool,
    stunned: bool,
    /// The last hit made passengers roll: 0 none, 1 at -1 (an 8), 2 unmodified (a 9).
    passengers_roll: u8,
    healthy: u8,
    wounded: u8,
    dead: u8,
    /// Healthy and wounded passengers when the last hit landed.
    at_hit: (u8, u8),
}

impl VehicleState {
    /// Burning or exploded: out of the game.
    pub fn wrecked(&self) -> bool {
        self.burns || self.explodes
    }

    /// Immobilised, or wrecked.
    pub fn immobilised(&self) -> bool {
        self.immobilised || self.wrecked()
    }

    /// After a hit's passenger rolls: what the hit left for them to roll
    /// is read no more, so states that differ only there are one.
    pub fn settle(&mut self) {
        self.passengers_roll = 0;
        self.at_hit = (0, 0);
    }

    /// Some gun taken out (or all destroyed).
    pub fn gun_out(&self) -> bool {
        self.minor_guns_out > 0 || self.biggest_gun_out || self.guns_destroyed || self.wrecked()
    }
}

/// Every metric of the vehicle damage scenario.
pub const METRICS: [MetricDecl; 13] = [
    MetricDecl::probability(
        "p_no_lasting_damage",
        "P(no lasting damage)",
        "P(only bounces and stuns)",
    ),
    MetricDecl::probability(
        "p_stunned",
        "P(stunned at least once)",
        "P(some hit stunned it: no move or shot for the rest of that turn)",
    ),
    MetricDecl::probability(
        "p_minor_gun_out",
        "P(a minor gun out)",
        "P(at least one minor gun taken out, or all guns destroyed)",
    ),
    MetricDecl::probability(
        "p_biggest_gun_out",
        "P(biggest gun out)",
        "P(the biggest gun taken out, or all guns destroyed)",
    ),
    MetricDecl::probability(
        "p_immobilised",
        "P(immobilised)",
        "P(immobilised, burning or exploded)",
    ),
    MetricDecl::probability(
        "p_all_guns_destroyed",
        "P(all guns destroyed)",
        "P(an 8 was suffered, or the vehicle is wrecked)",
    ),
    MetricDecl::probability("p_burns", "P(burns)", "P(the vehicle burns)"),
    MetricDecl::probability("p_explodes", "P(explodes)", "P(ammunition explosion)"),
    MetricDecl::probability(
        "p_wrecked",
        "P(burns or explodes)",
        "P(the vehicle is out: burning or exploded)",
    ),
    MetricDecl::probability(
        "p_can_fire",
        "P(a gun can still fire)",
        "P(not wrecked and some gun left)",
    ),
    MetricDecl::probability(
        "p_can_move",
        "P(can still move)",
        "P(neither immobilised nor wrecked)",
    ),
    MetricDecl::mean(
        "mean_passengers_dead",
        "mean passengers dead",
        "expected passengers killed",
    ),
    MetricDecl::mean(
        "mean_passengers_wounded",
        "mean passengers wounded",
        "expected passengers left alive and wounded",
    ),
];

/// The damage with its metric handles.
pub struct VehicleRule {
    v: VehicleDamage,
    list: MetricList,
    m: [Metric; 11],
    passengers: Option<[Metric; 2]>,
}

impl VehicleDamage {
    /// The damage with its metric handles.
    pub fn into_rule(self) -> VehicleRule {
        let mut list = MetricList::new();
        let m = std::array::from_fn(|i| list.add(&METRICS[i]));
        let passengers = (self.passengers > 0).then(|| [11, 12].map(|i| list.add(&METRICS[i])));
        VehicleRule {
            v: self,
            list,
            m,
            passengers,
        }
    }

    /// Whether `r` is damage already suffered.
    fn suffered(&self, r: VehicleResult, s: &VehicleState) -> bool {
        match r {
            VehicleResult::Bounce | VehicleResult::Stunned => false,
            // never had one: the reading; had and lost them: suffered
            VehicleResult::MinorGun if self.minor_guns == 0 => {
                self.no_minor_gun == NoMinorGun::NextUp
            }
            VehicleResult::MinorGun => s.minor_guns_out >= self.minor_guns || s.guns_destroyed,
            VehicleResult::BiggestGun => s.biggest_gun_out || s.guns_destroyed,
            VehicleResult::Immobilised => s.immobilised,
            VehicleResult::ImmobilisedAndGuns => s.immobilised && s.guns_destroyed,
            VehicleResult::Burns | VehicleResult::Explodes => false,
        }
    }

    /// The result a D10 gives on a vehicle in state `s`, going up past
    /// damage already suffered.
    pub fn result(&self, d10: u32, s: &VehicleState) -> VehicleResult {
        let mut r = VehicleResult::from_d10(d10);
        while self.suffered(r, s) {
            r = r.next_up();
        }
        r
    }

    /// One penetrating hit: a D10 on the table, going up past damage
    /// already suffered.
    pub fn damage<R: Roller>(&self, dice: &mut R, s: &mut VehicleState) {
        s.passengers_roll = 0;
        if s.wrecked() {
            return;
        }
        let r = self.result(dice.roll(10), s);
        s.at_hit = (s.healthy, s.wounded);
        match r {
            VehicleResult::Bounce => {}
            VehicleResult::Stunned => s.stunned = true,
            VehicleResult::MinorGun => {
                if s.minor_guns_out < self.minor_guns && !s.guns_destroyed {
                    s.minor_guns_out += 1;
                }
            }
            VehicleResult::BiggestGun => s.biggest_gun_out = true,
            VehicleResult::Immobilised => s.immobilised = true,
            VehicleResult::ImmobilisedAndGuns => {
                s.immobilised = true;
                s.guns_destroyed = true;
                s.passengers_roll = 1;
            }
            VehicleResult::Burns => {
                s.burns = true;
                s.passengers_roll = 2;
            }
            VehicleResult::Explodes => {
                // "No one of any sort gets out alive."
                s.explodes = true;
                s.dead += s.healthy + s.wounded;
                s.healthy = 0;
                s.wounded = 0;
            }
        }
    }
}

impl VehicleRule {
    fn hit<R: Roller>(&self, dice: &mut R, s: &mut VehicleState) {
        self.v.damage(dice, s);
    }

    fn passenger<R: Roller>(&self, j: u8, dice: &mut R, s: &mut VehicleState) {
        if s.passengers_roll == 0 {
            return;
        }
        let (h, w) = s.at_hit;
        if j >= h + w {
            return;
        }
        let modifier = if s.passengers_roll == 1 { -1 } else { 0 };
        let e = effect_of_hit(dice.d6() as i32 + modifier, false);
        match (e, j < h) {
            (Effect::DuckBack, _) => {}
            (Effect::Wounded, true) => {
                s.healthy -= 1;
                s.wounded += 1;
            }
            (Effect::Dead, true) => {
                s.healthy -= 1;
                s.dead += 1;
            }
            (_, false) => {
                s.wounded -= 1;
                s.dead += 1;
            }
        }
    }
}

impl VehicleRule {
    /// The state face tables' view of step `i`'s result: after a hit's
    /// last passenger roll, its bookkeeping cleared ([`VehicleState::settle`]),
    /// so the walk merges states equal in everything a metric reads (the
    /// exact evaluator keeps its own states, and its sums, as they were).
    pub fn settle_after(&self, i: usize, s: &mut VehicleState) {
        if i % (1 + usize::from(self.v.passengers)) == usize::from(self.v.passengers) {
            s.settle();
        }
    }

    /// Whether step `i` is a hit's: the fast sampler draws each hit, with
    /// its passengers' rolls, from its law on the vehicle's state
    /// ([`FacesModel::by_laws`]), the hits chained as the exact
    /// evaluator's Markov chain chains them.
    ///
    /// [`FacesModel::by_laws`]: crate::engine::stages::FacesModel::by_laws
    pub fn hit_starts(&self, i: usize) -> bool {
        i.is_multiple_of(1 + usize::from(self.v.passengers))
    }
}

impl Mechanic for VehicleRule {
    type State = VehicleState;

    fn start(&self) -> VehicleState {
        VehicleState {
            healthy: self.v.passengers,
            ..Default::default()
        }
    }

    fn steps(&self) -> usize {
        self.v.hits as usize * (1 + usize::from(self.v.passengers))
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut VehicleState) {
        let k = i % (1 + usize::from(self.v.passengers));
        if k == 0 {
            self.hit(dice, s);
        } else {
            self.passenger((k - 1) as u8, dice, s);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &VehicleState, sink: &mut impl MetricSink) {
        let [
            none,
            stunned,
            minor,
            biggest,
            immob,
            guns,
            burns,
            explodes,
            wrecked,
            fire,
            moves,
        ] = self.m;
        let wreck = s.wrecked();
        let guns_gone = s.guns_destroyed || wreck;
        let lasting = s.minor_guns_out > 0 || s.biggest_gun_out || s.immobilised || guns_gone;
        sink.record(none, u64::from(!lasting));
        sink.record(stunned, u64::from(s.stunned));
        sink.record(
            minor,
            u64::from(s.minor_guns_out > 0 || (guns_gone && self.v.minor_guns > 0)),
        );
        sink.record(biggest, u64::from(s.biggest_gun_out || guns_gone));
        sink.record(immob, u64::from(s.immobilised || wreck));
        sink.record(guns, u64::from(guns_gone));
        sink.record(burns, u64::from(s.burns));
        sink.record(explodes, u64::from(s.explodes));
        sink.record(wrecked, u64::from(wreck));
        let gun_left = !s.biggest_gun_out || s.minor_guns_out < self.v.minor_guns;
        sink.record(fire, u64::from(!guns_gone && gun_left));
        sink.record(moves, u64::from(!s.immobilised && !wreck));
        if let Some([dead, wounded]) = self.passengers {
            sink.record(dead, u64::from(s.dead));
            sink.record(wounded, u64::from(s.wounded));
        }
    }
}

/// The `no_minor_gun` variant: how a 5 reads on a vehicle that never had
/// a minor gun.
pub fn no_minor_gun(v: &Params) -> Result<NoMinorGun, ParamError> {
    NoMinorGun::read(v)
}

const VEHICLE_TABLE: &str = "Vehicle Damage Table 1D10";

crate::param_struct! {
    /// Parameters of the vehicle damage scenario.
    pub struct VehicleParams {
        vehicle: Opt<String> = preset("vehicle", "")
            .about("a vehicle of the characteristics table, or custom")
            .seed("Vehicle characteristics table"),
        hits: i64 = int(1, 20)
            .required()
            .about("penetrating hits, each a roll on the table")
            .seed(VEHICLE_TABLE),
        minor_guns: i64 = int(0, 4)
            .required()
            .about("guns besides the biggest (a Chimera's heavy bolter: 1)")
            .seed("Vehicle characteristics table"),
        passengers: i64 = int(0, 12)
            .default("0")
            .about("common troopers aboard (an APC carries up to 12)")
            .seed("HUMAN SPECIAL RULES"),
    }
}

/// Builds the model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = VehicleParams::read(p)?;
    // "All passengers (if APC) roll on "effect of hit chart"";
    // "Chimeras or most other APC's can carry 12 human sized passengers":
    // a walker carries none
    if p.passengers > 0 && p.vehicle.value.as_deref() == Some("sentinel") {
        return Err(ParamError::new(
            crate::param_name!(VehicleParams.passengers),
            "a Sentinel is a walker, not an APC: it carries no passengers (\"All passengers (if APC)\"; \"Chimeras or most other APC's can carry 12 human sized passengers\")",
        ));
    }
    let d = VehicleDamage {
        hits: p.hits as u32,
        minor_guns: p.minor_guns as u8,
        passengers: p.passengers as u8,
        no_minor_gun: no_minor_gun(v)?,
    };
    let size = exact_size(d.hits, d.passengers);
    let model = crate::engine::stages::FacesModel::new(d.into_rule())
        .settling(VehicleRule::settle_after)
        .by_laws(VehicleRule::hit_starts);
    Ok(Box::new(if size > EXACT_SIZE {
        model.without_exact(format!(
            "hits x (passengers + 1)^3 = {size} passes {}: the exact chain over the passengers' wounds would take over a second: Monte Carlo only",
            EXACT_SIZE
        ))
    } else {
        model
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chimera() -> VehicleDamage {
        VehicleDamage {
            hits: 1,
            minor_guns: 1,
            passengers: 0,
            no_minor_gun: NoMinorGun::NextUp,
        }
    }

    #[test]
    fn damage_already_suffered_takes_the_next_one_up_and_keeps_going() {
        let v = chimera();
        let fresh = VehicleState::default();
        assert_eq!(v.result(5, &fresh), VehicleResult::MinorGun);
        let s = VehicleState {
            minor_guns_out: 1,
            biggest_gun_out: true,
            immobilised: true,
            ..Default::default()
        };
        // 5: minor gun gone -> 6: biggest gone -> 7: immobile -> 8
        assert_eq!(v.result(5, &s), VehicleResult::ImmobilisedAndGuns);
        let s = VehicleState {
            immobilised: true,
            guns_destroyed: true,
            ..Default::default()
        };
        for d10 in 5..=9 {
            assert_eq!(v.result(d10, &s), VehicleResult::Burns, "{d10}");
        }
        assert_eq!(v.result(3, &s), VehicleResult::Stunned);
        // never had a minor gun: "(if there is a minor gun)" no effect by
        // default, the next up under the variant
        let mut bare = v.clone();
        bare.minor_guns = 0;
        bare.no_minor_gun = NoMinorGun::NoEffect;
        assert_eq!(bare.result(5, &fresh), VehicleResult::MinorGun);
        bare.no_minor_gun = NoMinorGun::NextUp;
        assert_eq!(bare.result(5, &fresh), VehicleResult::BiggestGun);
        // had one and lost it: already suffered under either reading
        let lost = VehicleState {
            minor_guns_out: 1,
            ..Default::default()
        };
        for reading in [NoMinorGun::NoEffect, NoMinorGun::NextUp] {
            let mut w = v.clone();
            w.no_minor_gun = reading;
            assert_eq!(w.result(5, &lost), VehicleResult::BiggestGun, "{reading:?}");
        }
    }
}

#[cfg(test)]
mod chain_tests {
    use super::*;
    use crate::engine::step_model::StepModel;
    use crate::systems::Model;

    fn exact(hits: u32, passengers: u8) -> (Vec<String>, Vec<f64>) {
        let m = StepModel::new(
            VehicleDamage {
                hits,
                minor_guns: 1,
                passengers,
                no_minor_gun: NoMinorGun::NextUp,
            }
            .into_rule(),
        );
        let names = m.metrics().iter().map(|d| d.name.clone()).collect();
        (names, m.exact().unwrap())
    }

    fn get(r: &(Vec<String>, Vec<f64>), name: &str) -> f64 {
        r.1[r.0.iter().position(|n| n == name).unwrap()]
    }

    #[test]
    fn two_hits_burn_and_explode_as_the_ladder_says() {
        // explodes: a 10 on either hit: 0.1 + 0.8 * 0.1 (a 9 or 10 first ends it)
        // burns: a 9 first (0.1); a 9 second after a survivable first (0.8 * 0.1);
        // after an 8 first (0.1), a 5-8 second goes up to 9 (0.4)
        let r = exact(2, 0);
        assert!((get(&r, "p_explodes") - 0.18).abs() < 1e-12);
        assert!((get(&r, "p_burns") - 0.22).abs() < 1e-12);
        // one hit: every result once
        let r = exact(1, 6);
        assert!((get(&r, "p_no_lasting_damage") - 0.4).abs() < 1e-12);
        assert!(
            (get(&r, "p_immobilised") - 0.4).abs() < 1e-12,
            "7, 8, 9, 10"
        );
        // passengers: a 10 kills 6, a 9 kills 1 in 3, an 8 (at -1) 1 in 6
        assert!((get(&r, "mean_passengers_dead") - (0.6 + 0.2 + 0.1)).abs() < 1e-12);
    }
}

#[cfg(test)]
mod size_tests {
    use super::super::RULES;
    use crate::systems::testing;

    fn exact_at(hits: i64, passengers: i64) -> Result<Vec<f64>, crate::engine::NoExact> {
        let (hits, passengers) = (hits.to_string(), passengers.to_string());
        let point = [
            ("vehicle", "chimera"),
            ("hits", &hits),
            ("passengers", &passengers),
        ];
        testing::model(&RULES, "vehicle_damage", &point).exact_or_why()
    }

    fn model(hits: &str) -> Box<dyn crate::systems::Model> {
        let point = [("vehicle", "chimera"), ("hits", hits), ("passengers", "4")];
        testing::model(&RULES, "vehicle_damage", &point)
    }

    /// A run of few trials is not worth a large layout: told its trials
    /// (`Model::plan`), the Chimera's model keeps its layout within half
    /// of them and samples its own way; untold, or told many, it lays out.
    #[test]
    fn a_chimera_told_few_trials_keeps_no_layout() {
        use crate::engine::Sampler;
        use crate::engine::stages::{STATE_FACES, STATE_LAWS};
        let model = || {
            let point = [("vehicle", "chimera"), ("hits", "3"), ("passengers", "4")];
            testing::model(&RULES, "vehicle_damage", &point)
        };
        let laws = Sampler::Custom(STATE_LAWS);
        assert_eq!(model().sampler(), laws);
        let many = model();
        many.plan(100_000_000);
        assert_eq!(many.sampler(), laws);
        let few = model();
        few.plan(1_000);
        assert_ne!(few.sampler(), laws);
        assert_ne!(few.sampler(), Sampler::Custom(STATE_FACES));
    }

    /// The fast sampler draws each hit, with its passengers' rolls, from
    /// its law on the vehicle's state (state laws): a word a hit, and none
    /// for the hits a wreck takes ("a burning or exploded vehicle takes no
    /// more"), so three hits on a Chimera (a 9 or 10 wrecks it) are
    /// between one and three words. A lone hit would be the whole trial,
    /// drawn from the exact answer: it takes the state face tables.
    #[test]
    fn hits_are_drawn_from_their_laws_but_never_a_lone_hit() {
        use crate::dice::{BatchedRoller, Tally};
        use crate::engine::Sampler;
        use crate::engine::stages::{STATE_FACES, STATE_LAWS};
        let m = model("3");
        assert_eq!(m.sampler(), Sampler::Custom(STATE_LAWS));
        let trials = 10_000;
        let mut roller = BatchedRoller::new(3, &[1]);
        m.run_chunk(&mut roller, trials, &mut Tally::new(m.metrics().len()));
        // 1 + 0.8 + 0.64 words a trial on average
        assert!(roller.words() > 2 * trials, "{}", roller.words());
        assert!(roller.words() < 3 * trials, "{}", roller.words());
        assert_eq!(model("1").sampler(), Sampler::Custom(STATE_FACES));
        // d20_chimera_damage.toml's Chimera with 6 aboard, in its run of
        // 200,000 trials: 2 to 4 hits are walked by laws within the run's
        // budget (the face tables of 2 hits already held 154,125 entries,
        // past it, and the cells took the step model's sampler)
        for hits in ["2", "4"] {
            let point = [("vehicle", "chimera"), ("hits", hits), ("passengers", "6")];
            let m = testing::model(&RULES, "vehicle_damage", &point);
            m.plan(200_000);
            assert_eq!(m.sampler(), Sampler::Custom(STATE_LAWS), "{hits} hits");
        }
    }

    /// Every hit at its largest with a full APC is skipped up front, with
    /// its reason; the example's largest cell (5 hits, 6 aboard) and 3 hits
    /// with 12 aboard stay exact.
    #[test]
    fn a_full_apc_under_twenty_hits_skips_exact_up_front() {
        let why = exact_at(20, 12).unwrap_err().to_string();
        assert!(why.contains("passengers"), "{why}");
        assert!(exact_at(5, 6).is_ok());
        assert!(exact_at(3, 12).is_ok());
    }
}
