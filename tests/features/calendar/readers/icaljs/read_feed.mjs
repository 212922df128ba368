// Reads an iCalendar file on stdin with ical.js and prints, as JSON, the calendar's name and
// each event's start as Unix seconds, placed by the file's own VTIMEZONEs (registered under
// their TZID, so no zone is taken from ical.js's knowledge of names).
import ICAL from "ical.js";
import { readFileSync } from "node:fs";

const calendar = new ICAL.Component(ICAL.parse(readFileSync(0, "utf8")));
for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
  const zone = new ICAL.Timezone(vtimezone);
  ICAL.TimezoneService.register(zone, zone.tzid);
}
const starts = {};
for (const vevent of calendar.getAllSubcomponents("vevent")) {
  const event = new ICAL.Event(vevent);
  starts[event.uid] = event.startDate.toUnixTime();
}
process.stdout.write(JSON.stringify({
  name: calendar.getFirstPropertyValue("x-wr-calname"),
  label: calendar.getFirstPropertyValue("name"),
  starts,
}));
