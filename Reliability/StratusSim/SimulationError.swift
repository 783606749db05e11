/// A simulation, soak or crash loop found something wrong, or could not run.
struct SimulationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
