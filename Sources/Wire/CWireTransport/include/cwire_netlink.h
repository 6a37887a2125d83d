// The rtnetlink numbers PathMonitor needs, as plain ints. The kernel headers spell most of them as
// members of anonymous enums or as macros next to function-like ones (NLMSG_ALIGN, RTA_OK) that
// Swift cannot import; the Swift side parses messages itself with explicit bounds checks and takes
// only the numbers and the structure sizes from here, so none of them is copied by hand.
#ifndef CWIRE_NETLINK_H
#define CWIRE_NETLINK_H

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if_arp.h>

static const int cwire_netlink_route = NETLINK_ROUTE;
/// The multicast groups a monitor joins: links, IPv4 and IPv6 addresses and routes.
static const unsigned cwire_rtmgrp_watched = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR
                                             | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_ROUTE;

static const int cwire_nlmsg_noop = NLMSG_NOOP;
static const int cwire_nlmsg_error = NLMSG_ERROR;
static const int cwire_nlmsg_done = NLMSG_DONE;
static const int cwire_nlmsg_overrun = NLMSG_OVERRUN;
static const int cwire_nlm_f_request = NLM_F_REQUEST;
static const int cwire_nlm_f_dump = NLM_F_DUMP;

static const int cwire_rtm_newlink = RTM_NEWLINK;
static const int cwire_rtm_dellink = RTM_DELLINK;
static const int cwire_rtm_getlink = RTM_GETLINK;
static const int cwire_rtm_newaddr = RTM_NEWADDR;
static const int cwire_rtm_deladdr = RTM_DELADDR;
static const int cwire_rtm_getaddr = RTM_GETADDR;
static const int cwire_rtm_newroute = RTM_NEWROUTE;
static const int cwire_rtm_delroute = RTM_DELROUTE;
static const int cwire_rtm_getroute = RTM_GETROUTE;

static const int cwire_ifla_ifname = IFLA_IFNAME;
static const int cwire_ifa_address = IFA_ADDRESS;
static const int cwire_ifa_local = IFA_LOCAL;
static const int cwire_rta_dst = RTA_DST;
static const int cwire_rta_oif = RTA_OIF;
static const int cwire_rta_prefsrc = RTA_PREFSRC;
static const int cwire_rta_table = RTA_TABLE;

static const int cwire_rtn_unicast = RTN_UNICAST;
static const int cwire_rtn_local = RTN_LOCAL;
static const int cwire_rtn_blackhole = RTN_BLACKHOLE;
static const int cwire_rtn_unreachable = RTN_UNREACHABLE;
static const int cwire_rtn_prohibit = RTN_PROHIBIT;
static const int cwire_rt_table_main = RT_TABLE_MAIN;
static const int cwire_rt_table_local = RT_TABLE_LOCAL;

static const int cwire_arphrd_ether = ARPHRD_ETHER;
static const int cwire_arphrd_loopback = ARPHRD_LOOPBACK;
static const int cwire_arphrd_ieee80211 = ARPHRD_IEEE80211;
static const int cwire_arphrd_ieee80211_radiotap = ARPHRD_IEEE80211_RADIOTAP;
static const int cwire_arphrd_none = ARPHRD_NONE;

/// Fixed parts of the messages, checked against the Swift parser's offsets by a test.
static const int cwire_sizeof_nlmsghdr = sizeof(struct nlmsghdr);
static const int cwire_sizeof_ifinfomsg = sizeof(struct ifinfomsg);
static const int cwire_sizeof_ifaddrmsg = sizeof(struct ifaddrmsg);
static const int cwire_sizeof_rtmsg = sizeof(struct rtmsg);
static const int cwire_sizeof_nlmsgerr = sizeof(struct nlmsgerr);

#endif
