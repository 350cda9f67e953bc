#[path = "common/independent.rs"]
mod independent;
#[test]
fn dump() {
    let args: Vec<String> = std::env::var("DBG")
        .unwrap()
        .split(';')
        .map(String::from)
        .collect();
    let pairs: Vec<(&str, &str)> = args[2..]
        .iter()
        .map(|a| {
            let (k, v) = a.split_once('=').unwrap();
            (k, v)
        })
        .collect();
    for (n, v) in independent::exact_all(&args[0], &args[1], &pairs) {
        println!("{n} = {v:.15}");
    }
}
