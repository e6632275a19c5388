/// Trees for the realtime rules' examples: two products of one subscription group, each with its
/// default, and the yearly product's switch-plan and promotional-offer messages.
enum RealtimeExampleFiles {
    /// `msgc.yaml` with the monthly product in `monthlyGroup` and `yearlyExtra` under the yearly product.
    static func config(monthlyGroup: String = "premium", yearlyExtra: String = "") -> String {
        """
        bundleId: com.example.news
        sourceLocale: en-US
        locales: [en-US, de-DE]
        namespace: 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b
        products:
          - id: com.example.news.premium.yearly
            group: premium
        \(yearlyExtra)  - id: com.example.news.premium.monthly
            group: \(monthlyGroup)

        """
    }

    /// The message source: both defaults, then the yearly product's switch-plan message
    /// (`switchLine` is its last line) and promotional-offer message (`offerLine`).
    static func messages(
        switchLine: String = "switchTo: com.example.news.premium.monthly", offerLine: String = "offer: premium.half_price",
        winbackExtra: String = ""
    ) -> String {
        """
        messages:
          - key: winback
            product: com.example.news.premium.yearly
            type: text
            default: true
            header: Stay with Premium
            body: Keep reading without limits.\(winbackExtra)
          - key: stay
            product: com.example.news.premium.monthly
            type: text
            default: true
            header: Stay with Premium
            body: Keep reading every day.
          - key: go-monthly
            product: com.example.news.premium.yearly
            type: switch-plan
            header: Prefer to pay monthly?
            body: Switch to the monthly plan and keep every feature.
            \(switchLine)
          - key: half-price
            product: com.example.news.premium.yearly
            type: promotional-offer
            header: Half price for a year
            body: Stay and pay half as much for your next year.
            \(offerLine)

        """
    }
}
