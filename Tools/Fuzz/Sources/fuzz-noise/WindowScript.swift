import FTWFuzzSupport
import FTWNoise

/// `ReplayWindow` alone: every answer must match the model's.
enum WindowScript {
    static func run(_ input: inout FuzzInput) {
        var window = ReplayWindow()
        var model = WindowModel()
        while !input.isAtEnd {
            let sequence = model.pick(&input)
            let expected = model.isFresh(sequence)
            FuzzCheck.require(window.isFresh(sequence) == expected, "isFresh(\(sequence)) disagrees with the model")
            FuzzCheck.require(window.accept(sequence) == expected, "accept(\(sequence)) disagrees with the model")
            if expected { model.accept(sequence) }
            FuzzCheck.require(window.newest == model.newest, "the window's newest drifted from the model's")
        }
    }
}
