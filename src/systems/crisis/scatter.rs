//! Where a thrown area attack lands: a hit centres the blast on the
//! target; a miss scatters by a d8 direction (a d6 on hexes) and as many
//! squares as the throw's range increment. From the landing square follow
//! who the blast still catches: the target, the thrower, a bystander.

use super::rules::{Cover, Grid, NORMAL_DIFFICULTY, RollParams, SkillRoll, Square};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `scatter` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const SCATTER_SCENARIO: Scenario = Scenario {
    name: "scatter",
    about: "a thrown area attack: a hit centres the blast on the target, a miss scatters by a d8 (d6 on hexes) and the range increment; who the blast still catches",
    seed_section: "Area of Effect; Missing an AoE Attack and Hex Grids",
    params: ScatterParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[
            ("skill", "0"),
            ("range_increment", "2"),
            ("thrower_distance", "3"),
            ("bystander_distance", "2"),
        ],
        &[
            ("skill", "1"),
            ("grid", "hex"),
            ("cover", "heavy"),
            ("penetrable", "true"),
            ("range_increment", "3"),
            ("blast_radius", "2"),
            ("thrower_distance", "4"),
            ("bystander_distance", "1"),
            ("bystander_direction", "2"),
        ],
    ],
    refusals: &[Refusal {
        what: "a scatter direction the hex grid's d6 cannot show",
        point: 0,
        set: &[("grid", "hex"), ("bystander_direction", "7")],
        unset: &[],
        field: "bystander_direction",
        words: &["d6"],
    }],
    naive: crate::systems::crisis::naive::SCATTER,
};

const AREA: &str = "Area of Effect; Missing an AoE Attack and Hex Grids";
const ATTACKS: &str = "Attacks; Making an Attack; Area of Effect";
const COVER: &str = "Cover; Cover and firearms";

crate::param_struct! {
    /// Parameters of the scatter scenario.
    pub struct ScatterParams {
        ..roll: RollParams,
        skill: i64 = int(-10, 30)
            .required()
            .about("the thrower's Athletics ('Thrown weapons, e.g. grenades, require you to make an Athletics check')")
            .seed(ATTACKS),
        hit: i64 = int(-20, 20)
            .default("0")
            .about("the weapon's HIT")
            .seed(ATTACKS),
        circumstance: i64 = int(-20, 20)
            .default("0")
            .about("circumstance modifier on the attack roll")
            .seed(ATTACKS),
        range_penalty: i64 = int(0, 20)
            .default("0")
            .about("the RNG penalty of the throw")
            .seed("Ranged Attacks"),
        cover: String = choice(Cover::WORDS)
            .default("none")
            .about("the target's cover: cover -2, heavy -4, total unhittable (every throw misses and scatters)")
            .seed(COVER),
        penetrable: bool = flag()
            .about("the cover is penetrable: one step less")
            .seed(COVER),
        range_increment: i64 = int(1, 20)
            .default("1")
            .about("the range increment the throw is in: 'You miss by a number of squares equal to the range increment of the throw'")
            .seed(AREA),
        blast_radius: i64 = int(0, 20)
            .default("1")
            .about("fields the blast reaches from where it lands (0: the landing field only; 1: it and its neighbours); the seed gives no sizes")
            .seed(AREA),
        grid: String = choice(Grid::WORDS)
            .default("square")
            .about("square grid (a d8 for the direction) or hex grid (a d6)")
            .seed("Missing an AoE Attack and Hex Grids"),
        thrower_distance: Opt<i64> = int(1, 40)
            .about("fields from the thrower to the target: reports whether the blast catches the thrower (a 1 scatters 'straight back at you')")
            .seed(AREA),
        bystander_distance: Opt<i64> = int(0, 40)
            .about("a bystander this many fields from the target, in the direction bystander_direction")
            .seed(AREA),
        bystander_direction: i64 = int(1, 8)
            .default("5")
            .about("the bystander's direction from the target, numbered as the scatter die: 1 towards the thrower, 5 away (4 on hexes), the others clockwise")
            .seed(AREA),
    }
}

/// Every metric of the scatter scenario.
pub const METRICS: [MetricDecl; 6] = [
    MetricDecl::probability(
        "p_hit",
        "P(the throw hits)",
        "P(the attack roll reaches DL 4: the blast is centred on the target)",
    ),
    MetricDecl::probability(
        "p_target_caught",
        "P(the blast catches the target)",
        "P(the target is within the blast radius of where it lands, hit or scattered)",
    ),
    MetricDecl::probability(
        "p_thrower_caught",
        "P(the blast catches the thrower)",
        "P(the thrower is within the blast radius of where it lands)",
    ),
    MetricDecl::probability(
        "p_bystander_caught",
        "P(the blast catches the bystander)",
        "P(the bystander is within the blast radius of where it lands)",
    ),
    MetricDecl::probability(
        "landed={k}",
        "P(lands {k} fields from the target)",
        "P(the blast lands exactly k fields from the target: 0 on a hit, the range increment on a miss)",
    ),
    MetricDecl::probability(
        "from_thrower={k}",
        "P(lands {k} fields from the thrower)",
        "P(the blast lands exactly k fields from the thrower)",
    ),
];

/// One throw.
struct Scatter {
    roll: SkillRoll,
    /// Skill + HIT + circumstance - RNG penalty + cover.
    bonus: i64,
    hittable: bool,
    grid: Grid,
    increment: i32,
    radius: i32,
    thrower: Option<Square>,
    bystander: Option<Square>,
    list: MetricList,
    hit: Metric,
    target_caught: Metric,
    thrower_caught: Option<Metric>,
    bystander_caught: Option<Metric>,
    landed: Vec<Metric>,
    from_thrower: Vec<Metric>,
}

/// Where the blast is centred, relative to the target.
type Landing = Square;

/// A miss whose direction is not rolled yet.
const MISSED: Landing = (0, i32::MIN);

impl Mechanic for Scatter {
    type State = Landing;

    fn start(&self) -> Landing {
        (0, 0)
    }

    fn steps(&self) -> usize {
        2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Landing) {
        if i == 0 {
            // "The roll otherwise is a normal Ranged Attack with a
            // Difficulty Level of 4"
            let total = self.roll.dice(dice) + self.bonus;
            let hits = self.hittable && total >= NORMAL_DIFFICULTY;
            *s = if hits { (0, 0) } else { MISSED };
        } else if *s == MISSED {
            // "roll a d8. The result of the d8 determines in which direction
            // you missed ... You miss by a number of squares equal to the
            // range increment of the throw."
            let face = dice.roll(self.grid.directions().len() as u32);
            *s = self.grid.towards(face, self.increment);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, &landing: &Landing, sink: &mut impl MetricSink) {
        let caught = |who: Square| self.grid.distance(landing, who) <= self.radius;
        sink.record(self.hit, u64::from(landing == (0, 0)));
        sink.record(self.target_caught, u64::from(caught((0, 0))));
        let off = self.grid.distance(landing, (0, 0));
        sink.record(self.landed[off as usize], 1);
        if let (Some(m), Some(thrower)) = (self.thrower_caught, self.thrower) {
            sink.record(m, u64::from(caught(thrower)));
            let away = self.grid.distance(landing, thrower);
            sink.record(self.from_thrower[away as usize], 1);
        }
        if let (Some(m), Some(bystander)) = (self.bystander_caught, self.bystander) {
            sink.record(m, u64::from(caught(bystander)));
        }
    }
}

/// Builds the scatter scenario.
pub fn build(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ScatterParams::read(p)?;
    let roll = p.roll.skill_roll()?;
    let grid = Grid::parse(&p.grid);
    let (hittable, cover_penalty) = Cover::parse(&p.cover).attacked(p.penetrable);
    let bonus = p.skill + p.hit + p.circumstance - p.range_penalty + cover_penalty;
    let increment = p.range_increment as i32;
    let radius = p.blast_radius as i32;
    let faces = grid.directions().len() as i64;
    let direction = p.bystander_direction;
    if direction > faces {
        return Err(ParamError::new(
            crate::param_name!(ScatterParams.bystander_direction),
            format!(
                "{direction} is not a face of the d{faces} a hex grid scatters with: 1 to {faces}"
            ),
        ));
    }
    let thrower = p.thrower_distance.value.map(|d| grid.towards(1, d as i32));
    let bystander = p
        .bystander_distance
        .value
        .map(|d| grid.towards(direction as u32, d as i32));
    let mut list = MetricList::new();
    let [hit, target, thrower_m, bystander_m, landed, from_thrower] = &METRICS;
    let hit = list.add(hit);
    let target_caught = list.add(target);
    let thrower_caught = thrower.map(|_| list.add(thrower_m));
    let bystander_caught = bystander.map(|_| list.add(bystander_m));
    let landed = list.family(landed, 0..=increment);
    // the farthest a blast can land from the thrower
    let from_thrower = thrower.map_or_else(Vec::new, |t| {
        list.family(from_thrower, 0..=grid.distance(t, (0, 0)) + increment)
    });
    Ok(Box::new(StepModel::new(Scatter {
        roll,
        bonus,
        hittable,
        grid,
        increment,
        radius,
        thrower,
        bystander,
        list,
        hit,
        target_caught,
        thrower_caught,
        bystander_caught,
        landed,
        from_thrower,
    })))
}

#[cfg(test)]
mod tests {
    use crate::systems::Model;
    use crate::systems::testing::exact as value;
    use crate::systems::{ParamValue, Params};

    fn model(pairs: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::testing::model(&super::super::RULES, "scatter", pairs)
    }

    #[test]
    fn a_miss_lands_the_range_increment_away_in_one_of_eight_directions() {
        // skill -3, DL 4: 2d6 - 3 >= 4 needs 7 or more, 21/36; a miss lands
        // 2 squares off in one of 8 directions
        let m = model(&[
            ("skill", "-3"),
            ("range_increment", "2"),
            ("blast_radius", "1"),
            ("thrower_distance", "3"),
            ("bystander_distance", "2"),
            ("bystander_direction", "5"),
        ]);
        let hit = 21.0 / 36.0;
        let miss = 1.0 - hit;
        assert!((value(&*m, "p_hit") - hit).abs() < 1e-12);
        assert!((value(&*m, "landed=0") - hit).abs() < 1e-12);
        assert!((value(&*m, "landed=2") - miss).abs() < 1e-12);
        assert_eq!(value(&*m, "landed=1"), 0.0);
        // 2 squares off with radius 1 never reaches the target
        assert!((value(&*m, "p_target_caught") - hit).abs() < 1e-12);
        // the thrower 3 back: only a 1 ("straight back at you") lands within
        // 1 field of him; the 2 and 8 land at (-2,-2) and (2,-2), 2 fields
        // away; the 3 and 7 level with the target, 3; the 4, 5, 6 ahead, 5
        assert!((value(&*m, "p_thrower_caught") - miss / 8.0).abs() < 1e-12);
        assert!((value(&*m, "from_thrower=1") - miss / 8.0).abs() < 1e-12);
        assert!((value(&*m, "from_thrower=2") - miss / 4.0).abs() < 1e-12);
        assert!((value(&*m, "from_thrower=3") - (hit + miss / 4.0)).abs() < 1e-12);
        assert!((value(&*m, "from_thrower=5") - miss * 3.0 / 8.0).abs() < 1e-12);
        // the 5 ("away from you") lands on a bystander 2 ahead; the 4 and 6
        // land 2 fields beside it
        assert!((value(&*m, "p_bystander_caught") - miss / 8.0).abs() < 1e-12);
        // a blast of radius 2 catches the target whatever the direction,
        // and the bystander on a hit or a 3 to 7 (the 3 and 7 land level
        // with the target, 2 fields from the bystander too)
        let m = model(&[
            ("skill", "-3"),
            ("range_increment", "2"),
            ("blast_radius", "2"),
            ("bystander_distance", "2"),
        ]);
        assert!((value(&*m, "p_target_caught") - 1.0).abs() < 1e-12);
        assert!((value(&*m, "p_bystander_caught") - (hit + miss * 5.0 / 8.0)).abs() < 1e-12);
    }

    #[test]
    fn hex_grids_roll_a_d6_and_total_cover_always_scatters() {
        let m = model(&[
            ("skill", "0"),
            ("cover", "total"),
            ("grid", "hex"),
            ("range_increment", "1"),
            ("blast_radius", "0"),
            ("bystander_distance", "1"),
            ("bystander_direction", "4"),
        ]);
        assert_eq!(value(&*m, "p_hit"), 0.0);
        assert_eq!(value(&*m, "p_target_caught"), 0.0);
        assert!((value(&*m, "p_bystander_caught") - 1.0 / 6.0).abs() < 1e-12);
        let mut p = Params::new();
        p.set("skill", ParamValue::Int(0));
        p.set("grid", ParamValue::from_text("hex"));
        p.set("bystander_direction", ParamValue::Int(7));
        let e = crate::systems::crisis::RULES
            .build("scatter", &p, &Params::new())
            .err()
            .unwrap();
        assert_eq!(e.field, "bystander_direction");
    }
}
