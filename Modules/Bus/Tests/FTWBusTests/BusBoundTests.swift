import Dispatch
import FTWBus
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every queue of the bus is bounded, drops what its policy says past the bound and counts it, and has one reader.
@Suite struct BusBoundTests {
    @Test func aSubscriberThatNeverReadsKeepsOnlyTheNewestEventsUpToItsBound() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe(buffering: BusBuffering(limit: 3, whenFull: .dropOldest))
        for value in 1...10 { bus.publish(value) }
        bus.finish()
        #expect(stream.dropped == 7)
        #expect(await Array(stream) == [8, 9, 10])
    }

    @Test func aDropNewestQueueKeepsTheFirstEventsAndRefusesTheRest() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe(buffering: BusBuffering(limit: 3, whenFull: .dropNewest))
        for value in 1...10 { bus.publish(value) }
        bus.finish()
        #expect(stream.dropped == 7)
        #expect(await Array(stream) == [1, 2, 3])
    }

    @Test func aFeedIsBoundedLikeASubscription() async {
        let (stream, feed) = BusStream<Int>.makeStream(buffering: BusBuffering(limit: 2, whenFull: .dropOldest))
        for value in 1...5 { feed.yield(value) }
        feed.finish()
        #expect(stream.dropped == 3)
        #expect(await Array(stream) == [4, 5])
    }

    @Test func theStandardBoundIsAQuarterOfAnHourOfFramesDroppingTheOldest() async {
        #expect(BusBuffering.standard == BusBuffering(limit: 1_024, whenFull: .dropOldest))
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        for value in 0..<5_000 { bus.publish(value) }
        bus.finish()
        let kept = await Array(stream)
        #expect(kept.count == 1_024)
        #expect(kept.first == 5_000 - 1_024)
        #expect(stream.dropped == 5_000 - 1_024)
    }

    @Test func aConsumerThatKeepsUpDropsNothing() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe(buffering: BusBuffering(limit: 1, whenFull: .dropNewest))
        var iterator = stream.makeAsyncIterator()
        for value in 1...100 {
            bus.publish(value)
            #expect(await iterator.next() == value)
        }
        #expect(stream.dropped == 0)
    }

    @Test func aStreamReadByOneTaskAfterAnotherIsFine() async {
        let bus = EventBus<Int>()
        let stream = bus.subscribe()
        bus.publish(1)
        let first = await Task {
            var iterator = stream.makeAsyncIterator(); return await iterator.next()
        }.value
        bus.publish(2)
        let second = await Task {
            var iterator = stream.makeAsyncIterator(); return await iterator.next()
        }.value
        #expect([first, second] == [1, 2])
    }

    @Test func aSecondTaskWaitingOnAStreamTrapsInsteadOfLeavingTheFirstWaitingForever() async {
        await #expect(processExitsWith: .failure) {
            // A stream that let a second reader wait would leave one of them waiting for good: after 10 s with no
            // trap the child ends as a success, which this test refuses, rather than hang.
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) { exit(0) }
            let bus = EventBus<Int>()
            let stream = bus.subscribe()
            async let first: Int? = {
                var iterator = stream.makeAsyncIterator(); return await iterator.next()
            }()
            async let second: Int? = {
                var iterator = stream.makeAsyncIterator(); return await iterator.next()
            }()
            _ = await (first, second)
        }
    }

    @Test func theTrapSaysAStreamHasOneConsumer() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) { exit(0) }
            let (stream, _) = BusStream<Int>.makeStream()
            async let first: Int? = {
                var iterator = stream.makeAsyncIterator(); return await iterator.next()
            }()
            async let second: Int? = {
                var iterator = stream.makeAsyncIterator(); return await iterator.next()
            }()
            _ = await (first, second)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("read by a second task"), "stderr: \(message.prefix(400))")
    }
}
