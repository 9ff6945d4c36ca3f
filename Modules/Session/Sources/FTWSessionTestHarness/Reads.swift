import FTWBoxProtocol
public import FTWSessionInterface

/// The reads the tests ask, by what they stand for.
public enum Reads {
    // The same requests the models send, so a test reads as the app would ask.
    public static let chargers = ReadRequest.api(APIRequest(method: "GET", path: "/api/loadpoints"))
    public static let prefs = ReadRequest.api(APIRequest(method: "GET", path: "/api/mpc/prefs"))
    public static let plan = ReadRequest.plan
    public static let status = ReadRequest.api(APIRequest(method: "GET", path: "/api/status"))
    public static let energy = ReadRequest.api(
        APIRequest(method: "GET", path: "/api/energy/daily", query: ["days": "7"])
    )
    public static let prices = ReadRequest.prices(PriceGet(fromMs: 1_764_633_600_000, toMs: 1_764_806_400_000))
    public static let history = ReadRequest.history(
        HistQuery(series: ["grid_w"], res: .fiveMinutes, fromMs: 1_764_496_800_000, toMs: 1_764_669_600_000)
    )
}
