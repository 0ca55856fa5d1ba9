"""A second hand-written records dev set, written blind.

The first set (:mod:`.records_dev`) was written, and the state, field and hours checks were added,
while reading one model's errors on it, so it favours that model and those checks. These
sentences were written from six other generated records (:func:`rt4chart_lab.data.records.review_record`,
seeds 9101 to 9106) and labelled from the record alone, before any judge, check or model had
been run on them. They follow the style of generated Data2txt answers without aiming at any
rule: hours grouped or written as exceptions, several attributes per sentence, reviews
summarized, a few sentences that overreach. 48 are faithful (E), 18 contradict the record (C)
and 7 state what it does not contain (N). Score them with ``rt4chart bench --dataset records
--subset blind``; fix nothing by reading them, or they stop being blind.
"""

from __future__ import annotations

SENTENCES: dict[int, list[tuple[str, str]]] = {
    9101: [
        ("Red Dragon is an Italian restaurant located at 2476 Broadway in Clearwater, Florida.", "E"),
        ("It holds a 4-star rating and sits in the upper-middle price range.", "E"),
        ("The restaurant is open daily from 8:30 AM to 6:30 PM, with slightly longer hours on Fridays, from 7:30 AM to 7:30 PM.", "E"),
        ("On weekends it stays open until 9 PM.", "C"),
        ("Red Dragon offers delivery and table service, but it does not take reservations or offer takeout.", "E"),
        ("Dogs are welcome, and guests can use valet or validated parking.", "E"),
        ("The restaurant is wheelchair accessible.", "C"),
        ("It has a divey feel, casual attire, an average noise level, and paid Wi-Fi.", "E"),
        ("Reviewers praised the generous portions, the delicious carbonara, and the warm, welcoming staff.", "E"),
        ("However, one diner found it overpriced and said the margarita was watered down.", "E"),
        ("Several reviewers complained about long waits for a table.", "C"),
        ("The restaurant was founded in 1998 by a family from Naples.", "N"),
        ("It is known for its homemade gelato.", "N"),
    ],
    9102: [
        ("Sunny Dragon is a Thai restaurant at 5183 Magazine St in Reno, Nevada, with a 3.5-star rating.", "E"),
        ("It serves breakfast, brunch and lunch, opening at 7 AM most days and at 6 AM on Fridays.", "E"),
        ("It is also a popular spot for dinner, staying open until 10 PM.", "C"),
        ("Reservations are accepted, credit cards are welcome, and the restaurant caters events.", "E"),
        ("Guests can dine outdoors, and free Wi-Fi is available.", "E"),
        ("It allows dogs on its patio.", "C"),
        ("The atmosphere is quiet and somewhat divey, with no TVs.", "E"),
        ("It serves beer and wine and falls in the pricier range.", "E"),
        ("Reviews are mixed: the mango sticky rice and the green curry drew praise, while another diner found the curry bland and lukewarm.", "E"),
        ("Reviewers consistently praised the friendly, attentive service.", "C"),
        ("Sunny Dragon offers a loyalty program for regular customers.", "N"),
        ("Diners noted that they were seated quickly even when it was busy.", "E"),
    ],
    9103: [
        ("Rusty Spoon is a sandwich and Italian spot located at 9047 Chestnut St in Edmonton, Alberta.", "E"),
        ("It has a strong 4.5-star rating.", "C"),
        ("It opens at 8 AM and closes at 5 PM every day except Friday, when it runs from 7 AM to 6 PM.", "E"),
        ("The moderately priced restaurant is good for kids and serves breakfast, lunch and dessert.", "E"),
        ("It accepts credit cards, has outdoor seating, and offers lot and validated parking.", "E"),
        ("It has free Wi-Fi for customers.", "C"),
        ("Dogs are not allowed, and there is no bike parking.", "E"),
        ("The ambience is described as romantic and touristy.", "E"),
        ("Reviewers were split on the margherita pizza: one found it fresh, another dry and flavorless.", "E"),
        ("Complaints included a filthy bathroom, a cramped and dated dining room, and an hour-long wait for takeout.", "E"),
        ("The tiramisu was a highlight for most reviewers.", "C"),
        ("It is located next to the Royal Alberta Museum.", "N"),
    ],
    9104: [
        ("Blue Taqueria is a Mexican seafood restaurant and cocktail bar at 8177 Main St in St. Louis, Missouri.", "E"),
        ("It opens at 5 PM and serves until midnight on Mondays, Wednesdays, Fridays, Saturdays and Sundays, and it is closed on Tuesdays and Thursdays.", "E"),
        ("It is a great place for a late-night meal.", "C"),
        ("The restaurant is kid-friendly, wheelchair accessible, and welcomes dogs.", "E"),
        ("It takes reservations and offers delivery, but not takeout or catering.", "E"),
        ("Credit cards are accepted.", "C"),
        ("Its romantic, intimate setting can get loud.", "E"),
        ("It is inexpensive and has its own parking lot.", "E"),
        ("Reviewers enjoyed the enchiladas and the carne asada tacos, and two mentioned that food came out fast.", "E"),
        ("One reviewer, however, waited almost an hour, and found the churros dry and the tables sticky.", "E"),
        ("It is open on Thursdays until midnight.", "C"),
        ("The menu includes a popular vegan burrito.", "N"),
    ],
    9105: [
        ("Corner Auto Care is a New American restaurant located at 8116 Elm St in Tucson, Arizona.", "E"),
        ("It is open seven days a week from 8 AM to 5 PM.", "E"),
        ("It has a 3-star rating and low prices, although two reviewers felt that $90 for two entrees and drinks was steep.", "E"),
        ("The restaurant has a full bar, outdoor seating, TVs, and a touristy feel, and it calls for dressy attire.", "E"),
        ("It accepts reservations and credit cards.", "C"),
        ("It caters, welcomes dogs, and offers validated parking, but has no bike parking.", "E"),
        ("It is a go-to spot for lunch.", "C"),
        ("Reviewers singled out the fried chicken sandwich and the onion rings as the best in Tucson.", "E"),
        ("Complaints included a filthy bathroom, sticky tables, and small portions.", "E"),
        ("Every reviewer said they would return.", "C"),
        ("The restaurant was recently renovated and added a rooftop terrace.", "N"),
        ("One reviewer praised the selection of local beers on tap.", "E"),
    ],
    9106: [
        ("Green Leaf Smokehouse is a Japanese restaurant at 7444 Elm St in Boise, Idaho, with a 3-star rating.", "E"),
        ("It is open from 10 AM to 6 PM on Mondays, Wednesdays, Thursdays and Sundays, and from 9 AM to 7 PM on Fridays and Saturdays.", "E"),
        ("It is closed on Tuesdays.", "E"),
        ("It is open until 10 PM on Saturdays.", "C"),
        ("It offers takeout, delivery and catering, and it takes reservations.", "E"),
        ("Table service is available.", "C"),
        ("The restaurant is kid-friendly, has outdoor seating and free Wi-Fi, and offers garage and lot parking.", "E"),
        ("It is on the expensive side, and the atmosphere is intimate but loud.", "E"),
        ("The spicy tuna roll divided reviewers: one called it the best in Boise, another said it tasted stale.", "E"),
        ("Reviewers agreed that the portions were generous for the price.", "C"),
        ("The chef trained for a decade in Tokyo before opening the restaurant.", "N"),
        ("One reviewer noted that the restaurant, including the restrooms, was spotless.", "E"),
    ],
}
