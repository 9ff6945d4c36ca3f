import FTWBoxProtocol
import FTWSessionInterface
import FTWTrace
import Testing

/// Box points are stamped by box uptime placed on the wall clock by the smallest gap seen on the connection.
@Suite struct StampingTests {
    private typealias World = TraceWorld

    @Test func aFrame700MillisecondsLateLandsOneSecondAfterTheOneBefore() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 101_000)
            await world.tick(uptimeMs: 102_000, delayMs: 750)
            await world.tick(uptimeMs: 103_000)
        }
        let times = await trace.points(field: FieldID.grid).map(\.timeMs)
        let first = World.bootMs + 100_050
        #expect(times == [first, first + 1_000, first + 2_000, first + 3_000])
    }

    @Test func theSmallestGapReanchorsTheWholeConnection() async {
        let trace = await World.recording { world, trace in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000, delayMs: 400)
            await world.tick(uptimeMs: 101_000, delayMs: 400)
            await world.tick(uptimeMs: 102_000, delayMs: 100)
            await world.tick(uptimeMs: 103_000, delayMs: 250)
        }
        let times = await trace.points(field: FieldID.grid).map(\.timeMs)
        let best = World.bootMs + 100
        #expect(times == [best + 100_000, best + 101_000, best + 102_000, best + 103_000])
    }

    @Test func aNewConnectionStartsANewAnchor() async {
        // Between the two connections the phone's clock was set 5 s forward. No `streamLost` comes between them:
        // the connection number alone says the anchor is stale.
        let shiftedBoot = World.bootMs + 5_000
        let trace = await World.recording { world, _ in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 101_000)
            let snap = Home.snap(uptimeMs: 110_000)
            await world.frame(.snap(snap), uptimeMs: 110_000, delayMs: 300, connection: 2, bootMs: shiftedBoot)
            await world.tick(uptimeMs: 111_000, delayMs: 300, connection: 2, bootMs: shiftedBoot)
        }
        let times = await trace.points(field: FieldID.grid).map(\.timeMs)
        #expect(
            times == [World.bootMs + 100_050, World.bootMs + 101_050, shiftedBoot + 110_300, shiftedBoot + 111_300]
        )
    }

    @Test func aRebootStartsANewAnchor() async {
        let rebootMs = World.bootMs + 102_000
        let trace = await World.recording { world, _ in
            await world.frame(.snap(Home.snap(uptimeMs: 100_000)), uptimeMs: 100_000)
            await world.tick(uptimeMs: 101_000)
            await world.frame(.snap(Home.snap(uptimeMs: 1_500)), uptimeMs: 1_500, delayMs: 80, bootMs: rebootMs)
            await world.tick(uptimeMs: 2_500, delayMs: 80, bootMs: rebootMs)
        }
        let times = await trace.points(field: FieldID.grid).map(\.timeMs)
        #expect(times == [World.bootMs + 100_050, World.bootMs + 101_050, rebootMs + 1_580, rebootMs + 2_580])
    }
}
