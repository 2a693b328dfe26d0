use hisha::position::Position;
fn main() {
    hisha::init();
    let args: Vec<String> = std::env::args().collect();
    let pos = Position::from_sfen(&args[1]).unwrap();
    let depth: u16 = args[2].parse().unwrap();
    let mut s = hisha::mate::Solver::new(64);
    let r = s.debug_ask(&pos, depth);
    println!("{r}");
}
