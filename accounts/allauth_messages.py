# ruff: noqa: E501  (msgids are kept whole, as allauth writes them)
"""django-allauth's words on our account pages and in its e-mails, listed for makemessages.

allauth ships no Malay, Hindi or Tagalog catalog. Its templates, forms and messages ask
gettext for these msgids (exactly as allauth 65 writes them); our catalogs in locale/ answer,
as Django reads LOCALE_PATHS before any app's own. Nothing imports this module: it is here so
that `makemessages` keeps these entries (docs/help.md, "The pages' catalogs"). After an
allauth upgrade, `tests/frontend/test_translations.py` checks that each msgid still exists.
"""

from django.utils.translation import gettext_noop, ngettext_lazy, pgettext_lazy

ALLAUTH_MESSAGES = (
    gettext_noop("Sign In"),
    gettext_noop("If you have not created an account yet, then please %(link)ssign up%(end_link)s first."),
    gettext_noop("Forgot your password?"),
    gettext_noop("Remember Me"),
    gettext_noop("Username or email"),
    pgettext_lazy("field label", "Login"),
    gettext_noop("Password"),
    gettext_noop("The username and/or password you specified are not correct."),
    gettext_noop("Signup"),
    gettext_noop("Sign Up"),
    gettext_noop("Already have an account? Then please %(link)ssign in%(end_link)s."),
    gettext_noop("Username"),
    gettext_noop("Email"),
    gettext_noop("Email address"),
    gettext_noop("Password (again)"),
    gettext_noop("A user is already registered with this email address."),
    gettext_noop("You must type the same password each time."),
    gettext_noop("Password Reset"),
    gettext_noop(
        "Forgotten your password? Enter your email address below, and we'll send you an email allowing you to reset it."
    ),
    gettext_noop("Reset My Password"),
    gettext_noop("Please contact us if you have any trouble resetting your password."),
    gettext_noop(
        "We have sent you an email. If you have not received it please check your spam folder. Otherwise contact us if you do not receive it in a few minutes."
    ),
    gettext_noop("Bad Token"),
    gettext_noop(
        'The password reset link was invalid, possibly because it has already been used.  Please request a <a href="%(passwd_reset_url)s">new password reset</a>.'
    ),
    gettext_noop("Change Password"),
    gettext_noop("Current Password"),
    gettext_noop("New Password"),
    gettext_noop("New Password (again)"),
    gettext_noop("Please type your current password."),
    gettext_noop("Your password is now changed."),
    gettext_noop("Sign Out"),
    gettext_noop("Are you sure you want to sign out?"),
    gettext_noop("Email Addresses"),
    gettext_noop("The following email addresses are associated with your account:"),
    gettext_noop("Verified"),
    gettext_noop("Unverified"),
    gettext_noop("Primary"),
    gettext_noop("Make Primary"),
    gettext_noop("Re-send Verification"),
    gettext_noop("Remove"),
    gettext_noop("Add Email Address"),
    gettext_noop("Add Email"),
    gettext_noop("Do you really want to remove the selected email address?"),
    gettext_noop("Confirm Email Address"),
    gettext_noop(
        'This email confirmation link expired or is invalid. Please <a href="%(email_url)s">issue a new email confirmation request</a>.'
    ),
    gettext_noop("Verify Your Email Address"),
    gettext_noop(
        "We have sent an email to you for verification. Follow the link provided to finalize the signup process. If you do not see the verification email in your main inbox, check your spam folder. Please contact us if you do not receive the verification email within a few minutes."
    ),
    gettext_noop("Confirm Access"),
    gettext_noop("Please reauthenticate to safeguard your account."),
    gettext_noop("Enter your password:"),
    gettext_noop("Confirm"),
    gettext_noop("Successfully signed in as %(name)s."),
    gettext_noop("You have signed out."),
    gettext_noop("Password successfully changed."),
    gettext_noop("Confirmation email sent to %(email)s."),
    gettext_noop("You have confirmed %(email)s."),
    gettext_noop("Removed email address %(email)s."),
    gettext_noop("Primary email address set."),
    # The e-mails (allauth/templates/account/email/*.txt) these settings send, rendered in the
    # page's language: the confirmation of an address (at sign-up and when one is added; a link,
    # not a code), a password reset (with the username: it is a login method), and the answer to a
    # reset for an unknown address. Notifications and codes are off; "account already exists" is
    # never sent (verification is optional, so sign-up refuses a known address on the form).
    gettext_noop("Hello from %(site_name)s!"),
    gettext_noop("Thank you for using %(site_name)s!\n%(site_domain)s"),
    gettext_noop("Please Confirm Your Email Address"),
    gettext_noop(
        "You're receiving this email because user %(user_display)s has given your email address to register an account on %(site_domain)s."
    ),
    gettext_noop("To confirm this is correct, go to %(activate_url)s"),
    gettext_noop("Password Reset Email"),
    gettext_noop(
        "You're receiving this email because you or someone else has requested a password reset for your user account.\n"
        "It can be safely ignored if you did not request a password reset. Click the link below to reset your password."
    ),
    gettext_noop("In case you forgot, your username is %(username)s."),
    gettext_noop("Unknown Account"),
    gettext_noop(
        "You are receiving this email because you, or someone else, tried to access an account with email %(email)s. However, we do not have any record of such an account in our database."
    ),
    gettext_noop("This mail can be safely ignored if you did not initiate this action."),
    gettext_noop("If it was you, you can sign up for an account using the link below."),
)

# Django's own words on the same pages (its password rules): Tagalog has no Django catalog,
# Hindi's lacks these.
DJANGO_MESSAGES = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        8,
    ),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        8,
    ),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
)
