await TraceBenchmark.run(ifNamed: Array(CommandLine.arguments.dropFirst()))
